"""``python -m hexwar.core``: the ``hexwar`` command line, for when the script is not on PATH."""

from hexwar.core.cli import main

if __name__ == "__main__":
    main()
