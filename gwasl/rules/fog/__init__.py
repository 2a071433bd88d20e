"""The fog-of-war layer: Mike O'Leary's solitaire shift rules ("Solitaire Play of ASL").

Modules:

* :mod:`~gwasl.rules.fog.state` -- :class:`FogState`, the scenario plus each side's hidden layer;
* :mod:`~gwasl.rules.fog.shift` -- windows, eligibility, consistency and the plan of a shift (2.3-2.5, 3.3, 4, 5.1);
* :mod:`~gwasl.rules.fog.resolve` -- the shift DR rolled and the 2.5 table applied;
* :mod:`~gwasl.rules.fog.knowledge` -- what a side knows of the enemy, and is shown of a shift DR;
* :mod:`~gwasl.rules.fog.status` -- status rules (2.2, 3.2, 3.4); TI cleared when the game starts a player turn;
* :mod:`~gwasl.rules.fog.drm`, :mod:`~gwasl.rules.fog.odds`, :mod:`~gwasl.rules.fog.table` -- the 2.5 DRM, exact odds, gwasl/resources/fog.json;
* :mod:`~gwasl.rules.fog.boresight` -- the third die of 6 and 7;
* :mod:`~gwasl.rules.fog.view` -- ``view(state, viewer)``, what each side may see;
* :mod:`~gwasl.rules.fog.policy` -- the automatic shifting policy;
* :mod:`~gwasl.rules.fog.checks` -- scenario checks of the fog extension fields;
* :mod:`~gwasl.rules.fog.preview` -- ``gwasl shift-preview``;
* :mod:`~gwasl.rules.fog.env` -- the injected LOS, TEM and concealment rules.
"""
