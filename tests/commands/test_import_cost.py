"""Commands load only what they use (issue 17.8's time budget on the largest map): `gwasl`
builds every command's parser, so a command module imports its heavy rules (LOS and numpy)
when it runs, and `render`/`command` never load numpy for the LOS commands beside them."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from testsupport import EXAMPLE_PATH


@pytest.mark.parametrize("argv", [["command", str(EXAMPLE_PATH)], ["render", str(EXAMPLE_PATH), "--out", "{out}"]])
def test_command_and_render_do_not_load_numpy(tmp_path, argv):
    argv = [a.replace("{out}", str(tmp_path / "m.png")) for a in argv]
    code = (
        "import sys\n"
        "from gwasl import cli\n"
        f"rc = cli.main({argv!r})\n"
        "print(rc, 'numpy' in sys.modules)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, QT_QPA_PLATFORM="offscreen"))
    assert r.stdout.strip().splitlines()[-1] == "0 False", r.stdout[-500:] + r.stderr[-500:]
