"""Many games of a scenario: the runner, its parallel backends, per-game records and the
statistics a designer reads (``hexwar simulate``, ``hexwar balance``)."""
