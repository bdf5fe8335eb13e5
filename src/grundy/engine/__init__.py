"""The engine: what every game is solved with, whatever the game.

- :mod:`~grundy.engine.solution`: the one protocol of a solved game
  (:class:`~grundy.Solution`, :class:`~grundy.Evaluation`);
- :mod:`~grundy.engine.driver`: the one Python driver around the compiled
  retrograde pass (memory estimate, remoteness width and its overflow
  rerun, decoding, errors), for every kind of game;
- :mod:`~grundy.engine.source`: compiled games (``MoveSource`` plug-ins)
  solved, and their solutions;
- :mod:`~grundy.engine.graph`: explicit game graphs (:class:`~grundy.GameGraph`),
  their solutions and their Grundy and loopy values;
- :mod:`~grundy.engine.rules` and :mod:`~grundy.engine.explore`: games given
  by their rules (``Game``, ``BatchGame``), explored and solved;
- :mod:`~grundy.engine.positions`: sums of positions, positions as JSON;
- :mod:`~grundy.engine.loopy`: generalized Sprague-Grundy values;
- :mod:`~grundy.engine.store`: the saved-file format.

Nothing here imports the games or the front-ends above it.
"""
