"""``python -m hexwar``: the hexwar command line, as the ``hexwar`` script runs it."""

from hexwar.core.cli import main

main()
