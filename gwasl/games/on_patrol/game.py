"""On Patrol in play: Harmon's solitaire rules for SUBMARINE on gwasl's base game (ruleset ``on-patrol``).

Sides: ``submarine`` (the person at the desk) and ``escorts`` (automated by
Harmon's rules, reading only :class:`~gwasl.games.on_patrol.state.EscortView`).
A turn is ten phases; the escorts act in phases 1 (convoy movement), 2
(escort movement), 3-7 (torpedoes, gunfire, star shells, search, attack
resolution: one action) and 10 (end of turn, the Escort Action Table); the
submarine in 8 (depth, movement, torpedoes) and 9 (reloads).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from gwasl.engine.advice import Advisor
from gwasl.engine.dice import GameDice
from gwasl.engine.emitter import Emitter
from gwasl.engine.events import Decided, Rolled
from gwasl.engine.game import (
    JSON_FILE,
    PRACTICE,
    Decision,
    Game,
    GameError,
    GameOption,
    GameOptions,
    IllegalAction,
    Policy,
    Seat,
    Shown,
    SourceKind,
    Status,
    Viewer,
)
from gwasl.engine.record import Record, to_json_value
from gwasl.games.on_patrol import records as R
from gwasl.games.on_patrol.automaton import escort_orders
from gwasl.games.on_patrol.combat import (
    attack_drms,
    attack_needs,
    attack_result,
    d66,
    depth_combat,
    gun_target,
    prolonged_result,
    torpedo_status,
)
from gwasl.games.on_patrol.detection import (
    diameter_for,
    escort_action,
    radar_target,
    search_range,
    sees,
    sonar_target,
    visible,
    visual_target,
)
from gwasl.games.on_patrol.formation import along2, formation_choices
from gwasl.games.on_patrol.geometry import DIRS, Pose, harmon_heading
from gwasl.games.on_patrol.movement import execute_fleet, fleet_order
from gwasl.games.on_patrol.scenario import BUNDLED, load_bundled, parse, place_convoy
from gwasl.games.on_patrol.state import (
    PHASES,
    AttackMark,
    EscortView,
    Force,
    Marker,
    PatrolState,
    Ship,
    Sub,
    Torpedo,
    evolve,
    hx,
    lab,
)
from gwasl.games.on_patrol.summary import summary
from gwasl.games.on_patrol.tables import Tables, stand_ins, tables
from gwasl.model.hexgrid import Hex, hex_line_hexes

__all__ = ["OnPatrolGame", "harmon"]

SUB, ESC = R.SUB_SIDE, R.ESCORT_SIDE
#: the cause of a Depth Combat Table roll begins so (its two dice are read as tens and units)
DEPTH_COMBAT = "Depth Combat Table"
ESCORT_PHASES = (1, 2, 3, 10)


class _Emit(Emitter[PatrolState]):
    """Events of one action, reduced as they are made so later rules see earlier results
    (the engine's helper, called as a function: ``emit(event)``)."""

    def __init__(self, game: OnPatrolGame, state: PatrolState) -> None:
        super().__init__(state, None, game.reduce)


class OnPatrolGame(Game[PatrolState]):
    ruleset: ClassVar[str] = "on-patrol"
    display_name: ClassVar[str] = "On Patrol (Harmon)"
    source_kind: ClassVar[SourceKind] = SourceKind(JSON_FILE, "an On Patrol patrol (JSON)", without="dices which bundled patrol it plays",
                                                   search="search On Patrol's bundled patrols: title",
                                                   bundled="gwasl.games.on_patrol.scenario:BUNDLED_DIR")
    #: the person commands the submarine; the escorts are gwasl's (no secret sides to choose)
    options_offered: ClassVar[tuple[GameOption, ...]] = (PRACTICE,)
    board: ClassVar[str] = "gwasl.ui.play.on_patrol_board:OnPatrolBoard"
    events = R.EVENTS
    actions = R.ACTIONS

    def __init__(self, t: Tables | None = None) -> None:
        self.t = t or tables()

    # -- set-up -----------------------------------------------------------------------
    def setup(self, source: Mapping[str, Any] | None, options: GameOptions) -> PatrolState:
        if source is None:
            return PatrolState(MappingProxyType({"generate": True}), "", 1942, False, 1, 72, 72, "slow-1", (), (),
                               MappingProxyType({}), frozenset(options.secret))
        return parse(self.t, source, frozenset(options.secret))

    def begin(self, state: PatrolState, dice: GameDice) -> list[Record]:
        em = _Emit(self, state)
        if state.scenario.get("generate"):
            r = dice.dr("which patrol (no scenario given): 1-2 day convoy, 3-4 night convoy, 5-6 hunter group")
            em(dice.event(r))
            em(R.PatrolChosen(load_bundled(BUNDLED[(r.total - 1) // 2])))
        st = em.state
        t = self.t
        convoy = [s for s in st.ships if s.kind in ("merchant", "capital")]
        start_speed = t.fleet_movement[st.convoy][0]
        if convoy:
            fixed = st.scenario.get("formation")
            choices = (fixed,) if isinstance(fixed, int) and fixed in t.formations else formation_choices(t, len(convoy))
            if len(choices) == 2:
                r = dice.dr(f"formation of a {len(convoy)}-ship convoy (103.1.2): 1-3 formation {choices[0]}, 4-6 formation {choices[1]}")
                em(dice.event(r))
                form = choices[0] if r.total <= 3 else choices[1]
                why = f"103.1.2: die {r.total}"
            else:
                form = choices[0]
                why = "set by the scenario" if isinstance(fixed, int) else f"103.1.1: {len(convoy)} ships"
            em(R.FormationChosen(form, why))
            _, placed = place_convoy(t, st, form)
            for s, p, station in placed:
                em(R.ShipPlaced(s.id, lab(p.bow), p.heading, station, min(start_speed, s.max_speed)))
        else:
            for s in st.ships:  # 103.2.5: escorts alone are placed by the scenario
                em(R.ShipPlaced(s.id, lab(s.pose.bow), s.pose.heading, "scenario (103.2.5)", min(start_speed, s.max_speed)))
        for sub in st.subs:
            em(R.SubPlaced(sub.id, lab(sub.pose.bow), sub.pose.heading, sub.depth))
        # 104.2.2 and the Submarine Detection Table's note: contact or a shallow start marks the sub
        for sub in em.state.subs:
            if st.scenario.get("contact") == "lost":
                # the scenario states a contact made and lost where the boat starts: an inverted marker
                # (104.1.3, phase 6 miss), so the escorts begin with the Escort Action Table's mode 6
                em(R.MarkerSet(sub.id, "inverted", lab(sub.pose.bow), sub.pose.heading, False,
                               "the scenario states contact lost here (104.2.2, 104.1.3)"))
            elif st.scenario.get("contact"):
                em(R.MarkerSet(sub.id, "escort", lab(sub.pose.bow), sub.pose.heading, False, "the scenario states contact (104.2.2)"))
            elif sub.depth <= t.c("visible_depth"):
                em(R.MarkerSet(sub.id, "sub", lab(sub.pose.bow), sub.pose.heading, sub.depth == 0,
                               "starts at 25 feet or shallower (104.2.2)"))
        em(self._mode_set(em.state, "Escort Action Table before play (104.2.2)"))
        em(R.PhaseBegan(1, 1))
        return em.events

    # -- the rules --------------------------------------------------------------------
    def sides(self, state: PatrolState) -> tuple[str, ...]:
        return (SUB, ESC)

    def secret_sides(self, state: PatrolState) -> frozenset[str]:
        return state.secret

    def status(self, state: PatrolState) -> Status:
        if state.over:
            return Status(state.turn, PHASES.get(state.phase, "over"), None, True, dict(state.result or {}))
        side = ESC if state.phase in ESCORT_PHASES else SUB
        return Status(state.turn, PHASES.get(state.phase, "set-up"), side if state.started else ESC)

    def legal_actions(self, state: PatrolState, viewer: Viewer) -> Sequence[Record]:
        if state.over or not state.started:
            return []
        ph = state.phase
        if ph == 1:
            return [R.ConvoyMove()]
        if ph == 2:
            return [escort_orders(EscortView.of(state), self.t)]
        if ph == 3:
            return [R.Resolve()]
        if ph == 10:
            return [R.EndTurn()]
        if not viewer.sees_secrets_of(SUB):
            return []  # the submarine's options would tell where it is
        out: list[Record] = []
        for sub in state.subs:
            if sub.active:
                out += self._sub_actions(state, sub) if ph == 8 else self._reloads(state, sub)
        if ph == 8:
            out.append(R.BreakOff())
        out.append(R.EndPhase())
        return out

    def _allowance(self, sub: Sub) -> tuple[int, bool]:
        c = self.t.submarines[sub.cls]
        if sub.depth == 0:
            return c.surface_speed, False
        if sub.emergency or sub.emergency_left > 0:
            return c.emergency_speed, True
        return c.submerged_speed, False

    def _sub_actions(self, state: PatrolState, sub: Sub) -> list[Record]:
        t, c = self.t, self.t.submarines[sub.cls]
        out: list[Record] = []
        if not sub.dived:
            step = t.c("depth_step")
            for dd in range(-t.c("max_depth_change"), t.c("max_depth_change") + 1, step):
                d = sub.depth + dd
                if dd and 0 <= d <= c.max_depth:
                    out.append(R.Dive(sub.id, d))
        allowance, _ = self._allowance(sub)
        if sub.moved < allowance:
            for turn in (0, -1, 1):
                if turn and sub.pivots >= sub.moved + 1:
                    continue
                p = sub.pose.step(turn)
                if sub.depth <= t.c("visible_depth") and self._ship_at(state, p.bow) is not None:
                    continue  # a submarine at 25 feet or less would collide
                out.append(R.Move(sub.id, turn))
        if sub.pivots < sub.moved:
            out += [R.Pivot(sub.id, -1), R.Pivot(sub.id, 1)]
        if sub.depth <= t.c("torpedo_max_launch_depth") and any(sub.tubes):
            # 104.1.5: only at vessels the submarine can see, within the torpedo's range
            seen = [min(a.distance(b) for a in sub.hexes() for b in s.hexes()) for s in state.ships if sees(state, sub, s, t)]
            nearest = min(seen, default=None)
            for tube, tp in enumerate(sub.tubes):
                if not tp or tube in sub.fired or nearest is None or nearest > t.torpedoes[tp].range:
                    continue
                for gyro in (0, -1, 1):
                    if state.on_board(self._launch_pose(sub, tube, gyro).bow):
                        out.append(R.Launch(sub.id, tube, gyro))
        return out

    def _reloads(self, state: PatrolState, sub: Sub) -> list[Record]:
        if sub.reloads <= len(sub.reloading) and not sub.reloads:
            return []
        busy = {tube for tube, _, _ in sub.reloading}
        types = [tp for tp in self.t.submarines[sub.cls].torpedoes if self.t.torpedoes[tp].year_from <= state.year]
        left = sub.reloads
        if left <= 0:
            return []
        return [R.Reload(sub.id, tube, tp) for tube, loaded in enumerate(sub.tubes)
                if not loaded and tube not in busy for tp in types]

    @staticmethod
    def _launch_pose(sub: Sub, tube: int, gyro: int) -> Pose:
        if tube < sub.bow_tubes:
            return Pose(sub.pose.ahead, (sub.pose.heading + gyro) % 6)
        back = (sub.pose.heading + 3) % 6
        return Pose(sub.pose.stern + DIRS[back], (back + gyro) % 6)

    @staticmethod
    def _ship_at(state: PatrolState, h: Hex) -> Ship | None:
        for s in state.ships:
            if s.afloat and h in s.hexes():
                return s
        return None

    def why_illegal(self, state: PatrolState, action: Record, viewer: Viewer) -> str:
        if state.phase in ESCORT_PHASES and not isinstance(action, (R.ConvoyMove, R.EscortOrders, R.Resolve, R.EndTurn)):
            return f"the escorts are moving (phase {state.phase}, {PHASES.get(state.phase)}): the submarine acts in phases 8 and 9"
        if isinstance(action, R.Launch):
            return "no such loaded tube, the submarine is deeper than 100 feet (designer's ruling), or it sees no target in range (104.1.5)"
        if isinstance(action, (R.Move, R.Pivot)):
            return "the submarine has used its speed this turn, or a pivot needs a hex moved (one turn per hex)"
        if isinstance(action, R.Dive):
            return "depth changes once a turn, by at most 50 feet, within the boat's depth limit"
        return super().why_illegal(state, action, viewer)

    def apply(self, state: PatrolState, action: Record, dice: GameDice) -> list[Record]:
        if state.over:
            raise IllegalAction("the patrol is over")
        em = _Emit(self, state)
        if isinstance(action, R.ConvoyMove):
            self._convoy(em, dice)
        elif isinstance(action, R.EscortOrders):
            self._escorts(em, action)
        elif isinstance(action, R.Resolve):
            self._resolve(em, dice)
        elif isinstance(action, R.EndTurn):
            self._end_turn(em, dice)
        elif isinstance(action, R.Dive):
            em(R.SubDived(action.sub, action.depth))
            self._watch(em)
        elif isinstance(action, R.Move):
            self._sub_move(em, action)
        elif isinstance(action, R.Pivot):
            sub = state.sub(action.sub)
            p = sub.pose.pivot(action.turn)
            em(R.SubMoved(sub.id, lab(p.bow), p.heading, action.turn, 0))
            self._watch(em)
        elif isinstance(action, R.Launch):
            self._launch(em, action)
        elif isinstance(action, R.Reload):
            em(R.ReloadStarted(action.sub, action.tube, action.type, state.turn + self.t.c("reload_turns")))
        elif isinstance(action, R.EndPhase):
            if state.phase == 8:
                self._end_sub_phase(em)
            else:
                em(R.PhaseBegan(state.turn, 10))
        elif isinstance(action, R.BreakOff):
            self._game_over(em, dice, "the submarine broke off the patrol")
        else:
            raise IllegalAction(f"{action.kind} is not an On Patrol action")
        return em.events

    # -- phase 1: convoy movement (104.3, 104.4) -----------------------------------------
    def _convoy(self, em: _Emit, dice: GameDice) -> None:
        st, t = em.state, self.t
        r = dice.dr("Fleet Movement Table (104.3.1)")
        em(dice.event(r))
        code = t.fleet_movement[st.convoy][2][r.total - 1]
        emergency = st.capital_speed > 0
        ecode = t.fleet_movement["emergency"][2][r.total - 1] if emergency else ""
        em(R.FleetOrderSet(st.convoy, code, ecode, st.capital_speed))
        movers = [s for s in st.ships if s.moving and (s.kind != "escort" or s.in_formation)]
        movers.sort(key=lambda s: (-along2(s.pose.bow, Hex(0, 0), s.pose.heading), s.id))
        stopped = [h for s in st.ships if s.status in ("diw", "sinking") for h in s.hexes()]
        where: dict[Hex, str] = {h: s.id for s in st.ships if s.afloat for h in s.hexes()}
        subs_up = {h: sub.id for sub in st.subs if sub.active and sub.depth == 0 for h in sub.hexes()}
        for s in movers:
            is_em = emergency and s.kind == "capital"
            order = fleet_order(ecode if is_em else code)
            n = min(st.capital_speed, s.max_speed) if is_em else (order.hexes or 0)
            for h in s.hexes():
                where.pop(h, None)
            halted_before = list(stopped)
            poses, halted = execute_fleet(s.pose, order, n, halted_before, where.__contains__)
            path: list[Pose] = []
            left = rammed = None
            for p in poses:
                if not st.on_board(p.bow):
                    left = True
                    break
                path.append(p)
                if p.bow in subs_up:
                    rammed = subs_up[p.bow]
                    break
            why = (f"Fleet Movement Table {ecode if is_em else code} ({'emergency, 104.4.2' if is_em else '104.3.1'})"
                   + ("; stopped short of a ship dead in the water (104.3.3)" if halted else ""))
            speed = sum(1 for a, b in zip([s.pose, *path], path, strict=False) if a.bow != b.bow)
            em(R.ShipMoved(s.id, tuple((lab(p.bow), p.heading) for p in path), speed, why, halted, 1, "formation"))
            if rammed:
                em(R.Rammed(s.id, rammed))
                em(R.SubSunk(rammed, f"rammed by {s.id} (108.1.5)"))
                subs_up = {h: sid for h, sid in subs_up.items() if sid != rammed}
            if left:
                em(R.ShipLeft(s.id))
            else:
                end = em.state.ship(s.id)
                for h in end.hexes():
                    where[h] = s.id
                if halted:
                    stopped.extend(end.hexes())
        self._watch(em)
        em(R.PhaseBegan(st.turn, 2))

    # -- phase 2: escort movement (105, 106, 108) ---------------------------------------
    def _escorts(self, em: _Emit, orders: R.EscortOrders) -> None:
        st = em.state
        for plan in orders.plans:
            steps = list(plan.steps)
            rammed = None
            if plan.movement == "ram":
                for i, (_, bow, _) in enumerate(steps):
                    h = hx(bow)
                    hit = next((s for s in em.state.subs if s.active and s.depth == 0 and h in s.hexes()), None)
                    if hit is not None:
                        steps, rammed = steps[: i + 1], hit.id
                        break
            em(R.ShipMoved(plan.ship, tuple((b, hd) for _, b, hd in steps), len(steps), plan.why, False, plan.mode,
                           plan.movement, plan.target, plan.radial, plan.vector, plan.maneuver if len(steps) == len(plan.steps) else (),
                           plan.order))
            if rammed:
                em(R.Rammed(plan.ship, rammed))
                em(R.SubSunk(rammed, f"rammed by {plan.ship} (104.2.1 mode 5, 108.1.5)"))
            for d in plan.drops:
                em(R.ChargesDropped(plan.ship, d.hex, d.weapon, d.count, d.mk_x, d.rank))
        self._watch(em)
        em(R.PhaseBegan(st.turn, 3))

    # -- phases 3-7 ------------------------------------------------------------------------
    def _resolve(self, em: _Emit, dice: GameDice) -> None:
        t = self.t
        turn = em.state.turn
        self._torpedoes(em, dice)
        em(R.PhaseBegan(turn, 4))
        self._gunfire(em, dice)
        em(R.PhaseBegan(turn, 5))
        if em.state.night:
            for m in em.state.markers:
                if m.kind == "inverted":
                    continue  # contact lost: nothing detected to light (107.1.1)
                escorts = [s for s in em.state.ships if s.kind == "escort" and s.afloat]
                if not escorts:
                    break
                firer = max(escorts, key=lambda s: (s.pose.bow.distance(m.target), -s.vp, s.id))
                hexes = [m.target, m.target + Hex(DIRS[m.facing].q * t.c("star_shell_ahead"), DIRS[m.facing].r * t.c("star_shell_ahead"))]
                em(R.StarShells(firer.id, tuple(lab(h) for h in hexes if em.state.on_board(h))))
            self._watch(em)
        em(R.PhaseBegan(turn, 6))
        self._search(em, dice)
        em(R.PhaseBegan(turn, 7))
        self._attacks(em, dice)
        em(R.PhaseBegan(turn, 8))
        em(R.SubTurnBegan())
        if not any(s.active for s in em.state.subs):
            self._game_over(em, dice, "no submarine is left on patrol")

    def _torpedoes(self, em: _Emit, dice: GameDice) -> None:
        t = self.t
        for tp in sorted(em.state.torpedoes, key=lambda x: int(x.id[1:])):
            h, path = tp.pose.bow, []
            run = tp.run
            gone = ""
            for _ in range(tp.speed):
                h = h + DIRS[tp.pose.heading]
                run += 1
                if not em.state.on_board(h):
                    gone = "ran off the map"
                    break
                path.append(h)
                ship = self._ship_at(em.state, h)
                if ship is not None and run >= t.c("torpedo_arming"):
                    em(R.TorpedoMoved(tp.id, tuple(lab(x) for x in path)))
                    ty = t.torpedoes[tp.type]
                    dud = dice.dr(f"torpedo {tp.id} hits {ship.id}: dud on {ty.dud_on(em.state.year)} or less ({ty.name}, {em.state.year})")
                    em(dice.event(dud))
                    if dud.total <= ty.dud_on(em.state.year):
                        em(R.TorpedoGone(tp.id, f"a dud against {ship.id}"))
                    else:
                        dmg = dice.dr(f"torpedo damage to {ship.id}", {f"{ty.name} warhead": ty.warhead})
                        em(dice.event(dmg))
                        total = ship.damage + dmg.final
                        status = torpedo_status(ship.hit_points, total)
                        em(R.ShipHit(ship.id, dmg.final, total, status, f"torpedo {tp.id}"))
                        em(R.TorpedoGone(tp.id, f"hit {ship.id}"))
                    path = []
                    gone = "-"
                    break
                if run >= tp.range:
                    gone = "ran its course"
                    break
            if path:
                em(R.TorpedoMoved(tp.id, tuple(lab(x) for x in path)))
            if gone and gone != "-":
                em(R.TorpedoGone(tp.id, gone))

    def _gunfire(self, em: _Emit, dice: GameDice) -> None:
        t = self.t
        for f in em.state.forces:
            m = em.state.marker(f.sub)
            if f.mode != 5 or m is None or m.kind != "sub" or not m.surfaced:
                continue
            aim = m.pose.bow
            for s in em.state.ships:
                sub = em.state.sub(f.sub)
                if not sub.active or s.status == "sunk" or not s.afloat or t.surface[s.cls].guns <= 0:
                    continue
                rng = s.pose.bow.distance(aim)
                target = gun_target(t, rng, t.surface[s.cls].guns)
                if not target or rng > t.c("gun_range"):
                    continue
                between = hex_line_hexes(s.pose.bow, aim)[1:-1]
                if any(self._ship_at(em.state, h) not in (None, s) for h in between):
                    continue  # line of sight blocked by another ship
                r = dice.DR(f"gunfire by {s.id} at the surfaced submarine (mode 5 opens fire, 104.2.1), range {rng}: "
                            f"hits on {target} or less (gwasl's stand-in gunfire table)")
                em(dice.event(r))
                if r.final <= target and sub.depth == 0 and aim in sub.hexes():
                    self._hurt_sub(em, sub.id, 1, f"gunfire from {s.id}")

    def _search(self, em: _Emit, dice: GameDice) -> None:
        t = self.t
        st = em.state
        contacts: set[str] = set()
        for sub in [s for s in st.subs if s.active]:
            sonar_by, radar_by, sighted = [], [], False
            for s in em.state.ships:
                if not s.afloat:
                    continue
                c = t.surface[s.cls]
                # each search the rules require is rolled against the number it needs, shown in the
                # cause; one without a chance (out of range, too deep or too shallow) is not rolled,
                # its two dice passed over unseen, so that the later rolls every viewer sees do not
                # depend on where the submarine is (the escorts' view may not tell it)
                rng = search_range(s, sub)
                if s.kind == "escort" and c.sonar and s.moving and s.speed <= t.c("sonar_max_speed"):
                    target, mods = sonar_target(t, s, sub)
                    if self._search_roll(em, dice, f"sonar search by {s.id} (required each turn at search speed, 108.3.1)",
                                         "sonar", rng, target, mods):
                        sonar_by.append(s.id)
                if c.radar_from is not None and st.year >= c.radar_from:
                    target = radar_target(t, s, sub)
                    if self._search_roll(em, dice, f"radar search by {s.id} (required each turn, 108.3.2)", "radar", rng, target):
                        radar_by.append(s.id)
                if st.night and s.kind == "escort":
                    target = visual_target(t, s, sub)
                    if self._search_roll(em, dice, f"night visual search by {s.id}", "night visual search", rng, target):
                        sighted = True
            sub = em.state.sub(sub.id)
            m = em.state.marker(sub.id)
            vis = visible(em.state, sub, t)
            p = sub.pose
            if vis:
                result = "visible"
                self._mark(em, sub, "sub", f"visible: {vis}")
            elif sighted:
                result = "sighted"
                em(R.SubSighted(sub.id))
                self._mark(em, sub, "sub", "sighted by night visual search (104.1.4 c)")
            elif sonar_by or radar_by:
                result = "contact"
                em(R.MarkerSet(sub.id, "escort", lab(p.bow), p.heading, False,
                               "found by " + ("sonar" if sonar_by else "radar") + " search, not visible (104.1.3, phase 6)"))
            else:
                result = "missed"
                if m is not None and m.kind in ("sub", "escort"):
                    em(R.MarkerSet(sub.id, "inverted", lab(m.pose.bow), m.pose.heading, False,
                                   "missed by radar and sonar search: contact lost (104.1.3, phase 6)"))
            contacts.update(sonar_by)
            em(R.SearchDone(sub.id, result, tuple(sonar_by), tuple(radar_by)))
        # escorts with sonar contact move at search speed in mode 3 (104.2.1)
        em(R.SearchDone("", "contacts", tuple(sorted(contacts)), ()))

    @staticmethod
    def _search_roll(em: _Emit, dice: GameDice, what: str, table: str, rng: int, target: int,
                     mods: Sequence[tuple[str, int]] = ()) -> bool:
        """One search: 2d6 with its DRMs, found on ``target`` or less (gwasl's stand-in table);
        without a chance, no roll, its dice passed over (see :meth:`_search`)."""
        if not target:
            dice.unlogged(2)
            return False
        r = dice.DR(f"{what} at {rng} hexes: found on {target} or less (gwasl's stand-in {table} table)", dict(mods))
        em(dice.event(r, SUB))
        return r.final <= target

    def _attacks(self, em: _Emit, dice: GameDice) -> None:
        t = self.t
        for a in em.state.attacks:
            hexlab = lab(a.hex)
            if a.weapon == "hedgehog":
                r = dice.dr(f"hedgehog pattern from {a.escort} on {hexlab}: hits on {t.hedgehog['hit_on']}+ if the submarine is there "
                            "(gwasl's stand-in)")
                em(dice.event(r, SUB))
                em(R.AttackResolved(a.escort, hexlab, a.weapon, "contact fuse"))
                for sub in em.state.subs:
                    if (sub.active and a.hex in sub.hexes() and 0 < sub.depth <= t.c("atw_max_depth")
                            and r.total >= t.hedgehog["hit_on"]):
                        self._hurt_sub(em, sub.id, t.hedgehog["damage"], f"hedgehog from {a.escort} on {hexlab}")
                continue
            r = dice.DR(f"{DEPTH_COMBAT} for {a.count} {a.weapon} from {a.escort} on {hexlab} (105.4.12: 11-23 miss, "
                        "24-36 within 50 feet, 41-53 within 25 feet, 54-66 same depth)")
            em(dice.event(r))
            b = depth_combat(t, (r.dice[0], r.dice[1]))
            em(R.AttackResolved(a.escort, hexlab, a.weapon, b.result))
            if b.result == "miss":
                continue
            mods = attack_drms(t, b, a.weapon, a.count, a.mk_x)
            ar = dice.DR(f"attack by {a.escort} on {hexlab} (gwasl's stand-in attack table: {attack_needs(t)})", dict(mods))
            em(dice.event(ar, SUB))
            res = attack_result(t, ar.final)
            for sub in em.state.subs:
                if not (sub.active and a.hex in sub.hexes() and sub.depth >= t.c("depth_step")):
                    continue
                if a.weapon == "squid" and sub.depth > t.c("atw_max_depth"):
                    continue
                if res.value > 0:
                    self._hurt_sub(em, sub.id, res.value, f"{a.weapon} from {a.escort} on {hexlab}: {res.result}")

    def _hurt_sub(self, em: _Emit, sid: str, damage: int, why: str) -> None:
        sub = em.state.sub(sid)
        total = sub.damage + damage
        em(R.SubDamaged(sid, damage, total, why))
        if total >= sub.hull:
            em(R.SubSunk(sid, why))

    # -- phase 8: the submarine -------------------------------------------------------------
    def _sub_move(self, em: _Emit, action: R.Move) -> None:
        sub = em.state.sub(action.sub)
        c = self.t.submarines[sub.cls]
        p = sub.pose.step(action.turn)
        emergency = sub.depth > 0 and sub.moved + 1 > c.submerged_speed
        if not em.state.on_board(p.bow):
            em(R.SubEscaped(sub.id, "left the map (its patrol is over)"))
            em(R.MarkerSet(sub.id, "none", lab(sub.pose.bow), sub.pose.heading, False, "the submarine left the map"))
            return
        em(R.SubMoved(sub.id, lab(p.bow), p.heading, action.turn, 1, emergency))
        self._watch(em)

    def _launch(self, em: _Emit, action: R.Launch) -> None:
        st = em.state
        sub = st.sub(action.sub)
        tp = sub.tubes[action.tube]
        p = self._launch_pose(sub, action.tube, action.gyro)
        tid = f"T{st.torpedo_count + 1}"
        em(R.TorpedoLaunched(sub.id, tid, tp, action.tube, lab(p.bow), p.heading))
        m = st.marker(sub.id)
        # Submarine Detection Table, phase 8: the inverted torpedo marker in hex B
        if not visible(st, sub, self.t) and (m is None or m.kind in ("inverted", "torpedo")):
            b = sub.pose.ahead
            if st.on_board(b):
                em(R.MarkerSet(sub.id, "torpedo", lab(b), sub.pose.heading, False,
                               "torpedoes appear, the submarine unseen: torpedo marker in hex B (104.1.3, phase 8)"))

    def _end_sub_phase(self, em: _Emit) -> None:
        st, t = em.state, self.t
        for sub in st.subs:
            m = st.marker(sub.id)
            if sub.active and m is not None and m.kind == "sub" and not visible(st, sub, t) and sub.start is not None:
                em(R.MarkerSet(sub.id, "escort", lab(sub.start.bow), sub.start.heading, False,
                               "the submarine left visible depth in phase 8: marker where it began its move (104.1.3)"))
            for tube, tp, ready in sub.reloading:
                if ready <= st.turn:
                    em(R.TubeLoaded(sub.id, tube, tp))
        em(R.PhaseBegan(st.turn, 9))

    def _watch(self, em: _Emit) -> None:
        """The Submarine Detection Table's "any phase" row: a visible submarine carries the
        marker of its own colour, moving with it (104.1.3)."""
        for sub in em.state.subs:
            if sub.active and visible(em.state, sub, self.t):
                self._mark(em, sub, "sub", "visible (104.1.3, 104.1.4)")

    def _mark(self, em: _Emit, sub: Sub, kind: str, why: str) -> None:
        m = em.state.marker(sub.id)
        surfaced = kind == "sub" and sub.depth == 0
        if m is None or (m.kind, m.pose, m.surfaced) != (kind, sub.pose, surfaced):
            em(R.MarkerSet(sub.id, kind, lab(sub.pose.bow), sub.pose.heading, surfaced, why))

    # -- phase 10 ----------------------------------------------------------------------------
    def _end_turn(self, em: _Emit, dice: GameDice) -> None:
        st = em.state
        for s in st.ships:
            if s.status == "sinking" and s.sinks_turn <= st.turn:
                em(R.ShipSunk(s.id))
        st = em.state
        if not any(s.active for s in st.subs):
            return self._game_over(em, dice, "no submarine is left on patrol")
        targets = [s for s in st.ships if s.afloat and (s.kind != "escort" or not st.has_convoy)]
        if not targets:
            return self._game_over(em, dice, "no target is left on the map")
        if st.turn >= st.turns:
            return self._game_over(em, dice, f"the patrol's {st.turns} turns are over")
        if st.first_launch_turn and not any(s.kind == "merchant" for s in st.ships) and any(s.kind == "capital" for s in st.ships):
            top = max(s.max_speed for s in st.ships if s.kind == "capital")
            base = st.capital_speed or self.t.fleet_movement[st.convoy][0]
            if base < top or not st.capital_speed:
                em(R.CapitalEmergency(min(top, base + 1)))
        em(self._mode_set(em.state, "Escort Action Table (104.2.1, phase 10)"))
        em(R.PhaseBegan(st.turn + 1, 1))
        return None

    def _mode_set(self, st: PatrolState, why: str) -> R.ModeSet:
        view = EscortView.of(st)
        forces = escort_action(view, self.t)
        recs = []
        for f in forces:
            diam = {}
            if f.mode in (5, 6):
                for e in f.escorts:
                    if e != f.rammer:
                        diam[e] = diameter_for(st.ship(e), f.target, self.t)
            recs.append(R.ForceRec(f.sub, f.mode, lab(f.target), f.facing, lab(f.bow), f.escorts, f.rammer, MappingProxyType(diam)))
        text = "; ".join(f"{f.sub}: mode {f.mode} ({self.t.escort_action[f.mode]['text']}), {len(f.escorts)} escorts" for f in recs)
        return R.ModeSet(tuple(recs), f"{why}: {text or 'mode 1 (no sightings): escorts in formation'}")

    def _game_over(self, em: _Emit, dice: GameDice, why: str) -> None:
        st, t = em.state, self.t
        # mode 7: a prolonged attack on every submarine still in contact at the end
        for sub in st.subs:
            m = st.marker(sub.id)
            if not sub.active or m is None or m.kind not in ("sub", "escort"):
                continue
            hunters = sorted((s for s in st.ships if s.kind == "escort" and s.afloat and t.surface[s.cls].sonar),
                             key=lambda s: (-s.vp, s.id))[: t.c("prolonged_attack_escorts")]
            em(R.ModeSet((R.ForceRec(sub.id, 7, lab(m.target), m.facing, lab(m.pose.bow), tuple(s.id for s in hunters)),),
                         f"{why}: mode 7, prolonged attack by {', '.join(s.id for s in hunters) or 'no escort'} (104.2.1, 34.7)"))
            for s in hunters:
                if not em.state.sub(sub.id).active:
                    break
                r = dice.DR(f"prolonged attack by {s.id} (mode 7, 104.2.1): gwasl's stand-in table, "
                            + ", ".join(f"{b.low}-{b.high} {b.result}" for b in t.prolonged_attack if b.value > 0))
                em(dice.event(r))
                b = prolonged_result(t, r.total)
                if b.value > 0:
                    self._hurt_sub(em, sub.id, b.value, f"prolonged attack by {s.id}: {b.result}")
        em(R.GameOver(MappingProxyType(self.result(em.state, why))))

    def result(self, st: PatrolState, why: str) -> dict[str, Any]:
        """The patrol's result: VP of ships sunk (or sinking) less the VP of submarines lost,
        against the scenario's victory levels."""
        sunk = [s for s in st.ships if s.status in ("sunk", "sinking")]
        vp = sum(s.vp for s in sunk)
        lost = [s for s in st.subs if s.status == "sunk"]
        score = vp - sum(s.vp for s in lost)
        v = st.victory
        level = ("decisive" if score >= v["decisive"] else "substantial" if score >= v["substantial"]
                 else "marginal" if score >= v["marginal"] else "none")
        winner = SUB if level != "none" else ESC
        text = (f"{why}: {len(sunk)} ship{'s' if len(sunk) != 1 else ''} sunk ({vp} VP)"
                + (f", {len(lost)} submarine{'s' if len(lost) != 1 else ''} lost (-{sum(s.vp for s in lost)} VP)" if lost else "")
                + f"; score {score}: " + (f"{level} victory for the submarine" if winner == SUB else "the escorts win"))
        return {"winner": winner, "why": text, "score": score, "level": level, "ships_sunk": len(sunk), "vp_sunk": vp,
                "subs_lost": len(lost), "sub_survived": not lost, "sunk": [s.id for s in sunk]}

    # -- reduce ------------------------------------------------------------------------------
    def reduce(self, state: PatrolState, event: Record) -> PatrolState:
        st = state
        if isinstance(event, (Rolled, Decided, R.FormationChosen, R.SearchDone)):
            if isinstance(event, R.FormationChosen):
                return evolve(st, formation=event.formation)
            if isinstance(event, R.SearchDone) and event.sub == "":
                return evolve(st, sonar_contacts=frozenset(event.sonar_contacts))
            return st
        if isinstance(event, R.PatrolChosen):
            return parse(self.t, event.scenario, st.secret)
        if isinstance(event, R.ShipPlaced):
            s = st.ship(event.ship)
            return st.with_ship(evolve(s, pose=Pose(hx(event.bow), event.heading), speed=event.speed, in_formation=True))
        if isinstance(event, R.SubPlaced):
            sub = st.sub(event.sub)
            return st.with_sub(evolve(sub, pose=Pose(hx(event.bow), event.heading), depth=event.depth,
                                       start=Pose(hx(event.bow), event.heading)))
        if isinstance(event, R.PhaseBegan):
            st = evolve(st, turn=event.turn, phase=event.phase, started=True)
            if event.phase == 1:
                st = evolve(st, attacks=(), convoy_paths=frozenset(), fleet_code="")
            if event.phase == 5:
                st = evolve(st, star_shells=())
            return st
        if isinstance(event, R.FleetOrderSet):
            return evolve(st, fleet_code=event.code)
        if isinstance(event, R.ShipMoved):
            s = st.ship(event.ship)
            pose = Pose(hx(event.path[-1][0]), event.path[-1][1]) if event.path else s.pose
            free = event.movement != "formation"
            s2 = evolve(s, pose=pose, speed=event.speed, halted=event.halted,
                         in_formation=s.in_formation and not free, maneuver=event.maneuver)
            st = st.with_ship(s2)
            if s.kind in ("merchant", "capital") and event.path:
                # 108.1.1-108.1.3: the hexes this ship entered and its pivot hexes are closed to escorts
                extra: set[Hex] = set()
                for b, h in ((s.pose.bow, s.pose.heading), *((hx(b), h) for b, h in event.path)):
                    p = Pose(b, h)
                    extra.update(p.hexes())
                    extra.update(p.beam_hexes())
                st = evolve(st, convoy_paths=st.convoy_paths | extra)
            if free:
                plan = {"ship": s.id, "mode": event.mode, "movement": event.movement, "target": event.target,
                        "radial": event.radial, "vector": event.vector, "why": event.why, "order": event.order,
                        "path": [b for b, _ in event.path]}
                st = evolve(st, plans=(*tuple(p for p in st.plans if p["ship"] != s.id), MappingProxyType(plan)))
            return st
        if isinstance(event, R.ChargesDropped):
            mark = AttackMark(event.escort, hx(event.hex), event.weapon, event.count, event.mk_x)
            st = evolve(st, attacks=(*st.attacks, mark))
            if event.mk_x:
                s = st.ship(event.escort)
                st = st.with_ship(evolve(s, mk_x_used=s.mk_x_used + event.mk_x))
            return st
        if isinstance(event, R.ShipLeft):
            return st.with_ship(evolve(st.ship(event.ship), status="left"))
        if isinstance(event, R.TorpedoLaunched):
            sub = st.sub(event.sub)
            tubes = list(sub.tubes)
            tubes[event.tube] = ""
            ty = self.t.torpedoes[event.type]
            tp = Torpedo(event.torpedo, sub.id, event.type, Pose(hx(event.hex), event.heading), ty.speed, ty.range)
            return evolve(st.with_sub(evolve(sub, tubes=tuple(tubes), fired=(*sub.fired, event.tube))),
                           torpedoes=(*st.torpedoes, tp), torpedo_count=st.torpedo_count + 1,
                           first_launch_turn=st.first_launch_turn or st.turn)
        if isinstance(event, R.TorpedoMoved):
            tps = []
            for tp in st.torpedoes:
                if tp.id == event.torpedo and event.path:
                    tp = evolve(tp, pose=Pose(hx(event.path[-1]), tp.pose.heading), run=tp.run + len(event.path))
                tps.append(tp)
            return evolve(st, torpedoes=tuple(tps))
        if isinstance(event, R.TorpedoGone):
            return evolve(st, torpedoes=tuple(tp for tp in st.torpedoes if tp.id != event.torpedo))
        if isinstance(event, R.ShipHit):
            s = st.ship(event.ship)
            sinks = st.turn + self.t.c("sinking_delay") if event.status == "sinking" and s.status != "sinking" else s.sinks_turn
            s2 = evolve(s, damage=event.total, status=event.status if s.status != "sinking" else "sinking",
                         torpedoed_turn=st.turn if event.why.startswith("torpedo") else s.torpedoed_turn,
                         sinks_turn=sinks, speed=0 if event.status != "afloat" else s.speed)
            return st.with_ship(s2)
        if isinstance(event, R.ShipSunk):
            s = st.ship(event.ship)
            st = st.with_ship(evolve(s, status="sunk"))
            if s.type == "avgas":
                st = evolve(st, avgas_until=MappingProxyType({**st.avgas_until, s.id: st.turn + 1}))
            return st
        if isinstance(event, R.SubMoved):
            sub = st.sub(event.sub)
            return st.with_sub(evolve(sub, pose=Pose(hx(event.bow), event.heading), moved=sub.moved + event.hexes,
                                       pivots=sub.pivots + (1 if event.turn else 0),
                                       emergency=sub.emergency or event.emergency,
                                       emergency_left=sub.emergency_left - (1 if event.emergency and not sub.emergency else 0),
                                       sighted=False if event.hexes else sub.sighted))
        if isinstance(event, R.SubDived):
            sub = st.sub(event.sub)
            return st.with_sub(evolve(sub, depth=event.depth, dived=True, sighted=False))
        if isinstance(event, R.SubTurnBegan):
            return evolve(st, subs=tuple(evolve(s, moved=0, pivots=0, dived=False, start=s.pose, emergency=False, fired=())
                                          for s in st.subs))
        if isinstance(event, R.MarkerSet):
            others = tuple(m for m in st.markers if m.sub != event.sub)
            if event.marker == "none":
                return evolve(st, markers=others)
            old = st.marker(event.sub)
            # a sighting that goes on keeps its place in the order of contacts (104.2.1 double, triple)
            seq = old.seq if old is not None and old.kind != "inverted" and event.marker != "torpedo" else st.seq + 1
            m = Marker(event.sub, event.marker, Pose(hx(event.bow), event.heading), event.surfaced, seq)
            return evolve(st, markers=(*others, m), seq=max(st.seq, seq))
        if isinstance(event, R.ModeSet):
            forces = tuple(Force(f.sub, f.mode, hx(f.target), f.facing, hx(f.bow), f.escorts, f.rammer) for f in event.forces)
            assigned = {e: f for f in event.forces for e in f.escorts}
            ships = []
            for s in st.ships:
                if s.kind == "escort":
                    f = assigned.get(s.id)
                    if f is None or f.mode == 7:
                        s = evolve(s, in_formation=True if f is None else s.in_formation, maneuver=(), diameter=0, diameter_target=None)
                    else:
                        target = hx(f.target)
                        # 105.3.4: a new target hex means a new vector, so a Williamson turn in hand is dropped
                        prev = next((of for of in st.forces if s.id in of.escorts), None)
                        keep = prev is not None and prev.target == target and prev.mode == f.mode
                        s = evolve(s, in_formation=False, maneuver=s.maneuver if keep else (),
                                    diameter=f.diameters.get(s.id, 0), diameter_target=target if s.id in f.diameters else None)
                ships.append(s)
            return evolve(st, forces=forces, ships=tuple(ships))
        if isinstance(event, R.StarShells):
            return evolve(st, star_shells=(*st.star_shells, *(hx(h) for h in event.hexes)))
        if isinstance(event, R.SubSighted):
            return st.with_sub(evolve(st.sub(event.sub), sighted=True))
        if isinstance(event, R.AttackResolved):
            return st
        if isinstance(event, R.SubDamaged):
            return st.with_sub(evolve(st.sub(event.sub), damage=event.total))
        if isinstance(event, R.SubSunk):
            st = st.with_sub(evolve(st.sub(event.sub), status="sunk"))
            return evolve(st, markers=tuple(m for m in st.markers if m.sub != event.sub))
        if isinstance(event, R.SubEscaped):
            return st.with_sub(evolve(st.sub(event.sub), status="escaped"))
        if isinstance(event, R.Rammed):
            s = st.ship(event.ship)
            return st.with_ship(evolve(s, rammed=True, damage=s.damage + 1,
                                        status=torpedo_status(s.hit_points, s.damage + 1) if s.status == "afloat" else s.status))
        if isinstance(event, R.ReloadStarted):
            sub = st.sub(event.sub)
            return st.with_sub(evolve(sub, reloads=sub.reloads - 1, reloading=(*sub.reloading, (event.tube, event.type, event.ready))))
        if isinstance(event, R.TubeLoaded):
            sub = st.sub(event.sub)
            tubes = list(sub.tubes)
            tubes[event.tube] = event.type
            return st.with_sub(evolve(sub, tubes=tuple(tubes), reloading=tuple(r for r in sub.reloading if r[0] != event.tube)))
        if isinstance(event, R.CapitalEmergency):
            return evolve(st, capital_speed=event.speed)
        if isinstance(event, R.GameOver):
            return evolve(st, over=True, result=event.result)
        raise GameError(f"on-patrol cannot reduce a {event.kind!r} event")

    # -- views -----------------------------------------------------------------------------
    def view(self, state: PatrolState, viewer: Viewer) -> dict[str, Any]:
        st = self.status(state)
        knows = viewer.sees_secrets_of(SUB)

        def pose(p: Pose) -> dict[str, Any]:
            return {"bow": lab(p.bow), "stern": lab(p.stern) if state.on_board(p.stern) else None,
                    "heading": harmon_heading(p.heading)}

        ships = [{"id": s.id, "name": s.name, "class": s.cls, "kind": s.kind, "type": s.type, "nation": s.nation,
                  **pose(s.pose), "speed": s.speed, "max_speed": s.max_speed, "damage": s.damage,
                  "hit_points": s.hit_points, "status": s.status, "vp": s.vp, "in_formation": s.in_formation,
                  "torpedoed_turn": s.torpedoed_turn or None}
                 for s in state.ships if s.status not in ("sunk", "left")]
        subs = []
        if knows:
            for sub in state.subs:
                subs.append({"id": sub.id, "name": sub.name, "class": sub.cls, **pose(sub.pose), "depth": sub.depth,
                             "moved": sub.moved, "damage": sub.damage, "hull": sub.hull, "status": sub.status,
                             "tubes": list(sub.tubes), "bow_tubes": sub.bow_tubes, "reloads": sub.reloads,
                             "reloading": [{"tube": a, "type": b, "ready": c} for a, b, c in sub.reloading],
                             "emergency_left": sub.emergency_left})
        markers = [{"sub": m.sub, "kind": m.kind, **pose(m.pose), "target": lab(m.target) if state.on_board(m.target) else None,
                    "surfaced": m.surfaced, "colour": {"sub": "submarine", "torpedo": "submarine"}.get(m.kind, "escorts")}
                   for m in state.markers]
        out: dict[str, Any] = {
            "ruleset": self.ruleset, "turn": st.turn, "phase": st.phase, "phase_number": state.phase, "side": st.side,
            "over": st.over, "result": to_json_value(st.result) if st.result else None, "title": state.title, "year": state.year,
            "night": state.night, "turns": state.turns, "board": {"columns": state.columns, "rows": state.rows},
            "formation": state.formation or None, "fleet_code": state.fleet_code or None,
            "ships": ships, "sunk": [s.id for s in state.ships if s.status == "sunk"],
            "submarines": subs, "markers": markers,
            "torpedoes": [{"id": tp.id, "type": tp.type, "hex": lab(tp.pose.bow), "heading": harmon_heading(tp.pose.heading),
                           "run": tp.run, "range": tp.range, "path": [lab(h) for h in tp.path() if state.on_board(h)]}
                          for tp in state.torpedoes],
            "forces": [{"sub": f.sub, "mode": f.mode, "target": lab(f.target), "facing": harmon_heading(f.facing),
                        "escorts": list(f.escorts), "rammer": f.rammer or None,
                        "movement": self.t.escort_action[f.mode]["movement"]} for f in state.forces],
            "attacks": [{"escort": a.escort, "hex": lab(a.hex), "weapon": a.weapon, "count": a.count} for a in state.attacks],
            "star_shells": [lab(h) for h in state.star_shells],
            "plans": [{**dict(p), "radial": None if p["radial"] is None else harmon_heading(p["radial"]),
                       "vector": None if p["vector"] is None else harmon_heading(p["vector"])} for p in state.plans],
            "stand_ins": len(stand_ins()),
        }
        out["summary"] = summary(out)
        return out

    def event_view(self, event: Record, viewer: Viewer) -> Shown | None:
        if getattr(event, "secret", False) and not viewer.sees_secrets_of(SUB):
            return None
        if isinstance(event, Rolled):
            shown = self.roll_shown(event, viewer)
            if shown is not None and event.cause.startswith(DEPTH_COMBAT) and len(event.dice) == 2:
                # the table reads its two dice as tens and units, 11-66 (105.4.12): 46, not 4+6 = 10
                read = d66(event.dice)
                return Shown(shown.kind, f"{event.cause}: {read}", {**shown.data, "final": read, "read_as": "d66"})
            return shown
        if isinstance(event, Decided):
            return self.decision_shown(event, viewer)
        if isinstance(event, R.SearchDone) and event.sub == "":
            return None
        data = event.to_json()
        kind = data.pop("kind")
        data.pop("v", None)
        return Shown(kind, _text(event), _harmon_headings(data))

    def action_view(self, state: PatrolState, action: Record, viewer: Viewer) -> Shown:
        return Shown(action.kind, _action_text(state, action))

    def irreversible(self, event: Record) -> bool:
        """A die roll, a reveal, or a detection marker placed or moved: a move that showed the
        boat to the escorts (104.1.3) cannot be taken back to try another way."""
        return super().irreversible(event) or isinstance(event, R.MarkerSet)

    # -- automation and batch play -------------------------------------------------------------
    def policy_view(self, state: PatrolState, viewer: Viewer) -> Any:
        """The submarine's commander sees the whole board (104.1.2); the escorts only their view."""
        return state if viewer.sees_secrets_of(SUB) else EscortView.of(state)

    def automated(self, state: PatrolState) -> Mapping[str, Policy]:
        return {ESC: harmon}

    def policies(self) -> Mapping[str, Policy]:
        from gwasl.games.on_patrol.policies import POLICIES

        return POLICIES

    def advisor(self) -> Advisor:
        """Suggest a move ranks the commander's plans by rollouts (:mod:`.advisor`, issue 27 item 11)."""
        from gwasl.games.on_patrol.advisor import advise

        return lambda seat, policies, dice: advise(self, seat, policies, dice)

    def player_side(self, state: PatrolState) -> str | None:
        return SUB


def harmon(seat: Seat[Any], dice: GameDice) -> Decision:
    """The escorts' policy: Harmon's rules leave no choice, so the one legal action is taken
    (computed from the escorts' view only, see ``legal_actions``)."""
    legal = seat.legal()
    if not legal:
        raise GameError("the escorts have no action")
    a = legal[0]
    if isinstance(a, R.EscortOrders):
        if not a.plans:
            return Decision(a, "no escort moves by itself this turn (mode 1: in formation)", {})
        return Decision(a, f"{len(a.plans)} escorts move and attack by Harmon's rules (105, 106, 108)",
                        {"plans": [p.why for p in a.plans]})
    return Decision(a, {"convoy_move": "convoy movement (104.3.1)", "resolve": "torpedoes, gunfire, star shells, search, attacks (phases 3-7)",
                        "end_turn": "end of turn: the Escort Action Table (104.2.1)"}.get(a.kind, a.kind), {})


def _harmon_headings(data: Any) -> Any:
    """Event JSON with every heading in Harmon's numbering (1-6, 6 north) as the views give them."""
    if isinstance(data, dict):
        out: dict[str, Any] = {}
        for k, v in data.items():
            if k in ("heading", "facing") and isinstance(v, int):
                out[k] = harmon_heading(v)
            elif k == "path" and isinstance(v, list) and v and isinstance(v[0], list):
                out[k] = [[b, harmon_heading(h)] for b, h in v]
            elif k in ("radial", "vector") and isinstance(v, int):
                out[k] = harmon_heading(v)
            else:
                out[k] = _harmon_headings(v)
        return out
    if isinstance(data, list):
        return [_harmon_headings(x) for x in data]
    return data


def _text(e: Record) -> str:
    if isinstance(e, R.PatrolChosen):
        return f"Patrol: {e.scenario.get('title', '?')}"
    if isinstance(e, R.FormationChosen):
        return f"Convoy formation {e.formation} ({e.why})"
    if isinstance(e, R.ShipPlaced):
        return f"{e.ship} placed at {e.bow}, heading {harmon_heading(e.heading)} ({e.station})"
    if isinstance(e, R.SubPlaced):
        return f"{e.sub} at {e.bow}, heading {harmon_heading(e.heading)}, {e.depth} ft"
    if isinstance(e, R.PhaseBegan):
        return f"Turn {e.turn}, phase {e.phase}: {PHASES[e.phase]}"
    if isinstance(e, R.FleetOrderSet):
        return f"Fleet Movement Table: {e.code}" + (f" (capital ships: {e.emergency_code} at {e.capital_speed})" if e.emergency_code else "")
    if isinstance(e, R.ShipMoved):
        to = e.path[-1][0] if e.path else "stays"
        return f"{e.ship} -> {to} ({e.speed} hexes): {e.why}"
    if isinstance(e, R.ChargesDropped):
        return (f"{e.escort} fires {e.count} {e.weapon}{' (one Mk X)' if e.mk_x else ''} into {e.hex}"
                + (f", assault-zone priority {e.rank} of 19 (105.4.4)" if e.rank else ""))
    if isinstance(e, R.ShipLeft):
        return f"{e.ship} leaves the map"
    if isinstance(e, R.TorpedoLaunched):
        return f"{e.sub} fires {e.torpedo} ({e.type}) from tube {e.tube + 1} into {e.hex}, heading {harmon_heading(e.heading)}"
    if isinstance(e, R.TorpedoMoved):
        return f"{e.torpedo} runs to {e.path[-1] if e.path else '-'}"
    if isinstance(e, R.TorpedoGone):
        return f"{e.torpedo}: {e.why}"
    if isinstance(e, R.ShipHit):
        return f"{e.ship} hit by {e.why}: {e.damage} damage ({e.total} in all), {'dead in the water' if e.status == 'diw' else e.status}"
    if isinstance(e, R.ShipSunk):
        return f"{e.ship} sinks"
    if isinstance(e, R.SubMoved):
        return f"{e.sub} -> {e.bow}, heading {harmon_heading(e.heading)}" + (" (emergency speed)" if e.emergency else "")
    if isinstance(e, R.SubDived):
        return f"{e.sub} to {e.depth} ft"
    if isinstance(e, R.SubTurnBegan):
        return "The submarine's phase"
    if isinstance(e, R.MarkerSet):
        if e.marker == "none":
            return f"{e.sub}'s marker removed: {e.why}"
        return f"{e.sub}: {e.marker} marker at {e.bow}, heading {harmon_heading(e.heading)}: {e.why}"
    if isinstance(e, R.ModeSet):
        return e.why
    if isinstance(e, R.StarShells):
        return f"{e.firer} fires star shells over {', '.join(e.hexes)} (107.1)"
    if isinstance(e, R.SearchDone):
        return f"Search for {e.sub}: {e.result}" + (f" (sonar: {', '.join(e.sonar_contacts)})" if e.sonar_contacts else "") + (
            f" (radar: {', '.join(e.radar_contacts)})" if e.radar_contacts else "")
    if isinstance(e, R.SubSighted):
        return f"{e.sub} sighted by night visual search (104.1.4 c; gwasl's stand-in table)"
    if isinstance(e, R.AttackResolved):
        return f"{e.weapon} from {e.escort} on {e.hex}: {e.band}"
    if isinstance(e, R.SubDamaged):
        return f"{e.sub} damaged ({e.damage}, {e.total} in all): {e.why}"
    if isinstance(e, R.SubSunk):
        return f"{e.sub} is sunk: {e.why}"
    if isinstance(e, R.SubEscaped):
        return f"{e.sub} {e.why}"
    if isinstance(e, R.Rammed):
        return f"{e.ship} rams {e.sub}"
    if isinstance(e, R.ReloadStarted):
        return f"{e.sub} reloads tube {e.tube + 1} with a {e.type} (ready turn {e.ready})"
    if isinstance(e, R.TubeLoaded):
        return f"{e.sub}: tube {e.tube + 1} loaded ({e.type})"
    if isinstance(e, R.CapitalEmergency):
        return f"Capital ships at emergency speed {e.speed} (104.4.2)"
    if isinstance(e, R.GameOver):
        return f"Patrol over: {e.result.get('why')}"
    return e.kind


def _action_text(state: PatrolState, a: Record) -> str:
    if isinstance(a, R.Dive):
        return f"{a.sub}: {'dive' if a.depth > state.sub(a.sub).depth else 'rise'} to {a.depth} ft"
    if isinstance(a, R.Move):
        return f"{a.sub}: " + {0: "ahead one hex", -1: "turn to port and ahead", 1: "turn to starboard and ahead"}[a.turn]
    if isinstance(a, R.Pivot):
        return f"{a.sub}: turn to {'port' if a.turn < 0 else 'starboard'}"
    if isinstance(a, R.Launch):
        sub = state.sub(a.sub)
        where = "bow" if a.tube < sub.bow_tubes else "stern"
        return f"{a.sub}: fire {where} tube {a.tube + 1} ({sub.tubes[a.tube]})" + (f", gyro {'+' if a.gyro > 0 else '-'}60" if a.gyro else "")
    if isinstance(a, R.Reload):
        return f"{a.sub}: reload tube {a.tube + 1} with a {a.type}"
    if isinstance(a, R.EndPhase):
        return "end the phase"
    if isinstance(a, R.BreakOff):
        return "break off the patrol (ends the game)"
    if isinstance(a, R.EscortOrders):
        return f"escort movement: {len(a.plans)} escorts"
    return {"convoy_move": "convoy movement", "resolve": "resolve phases 3-7", "end_turn": "end of turn"}.get(a.kind, a.kind)
