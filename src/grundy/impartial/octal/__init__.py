"""Take-and-break games (octal and hexadecimal codes, Grundy's game,
subtraction games), one idea a module:

- :mod:`~grundy.impartial.octal.game`: the games themselves
  (:class:`~grundy.TakeAndBreakGame` and its named kinds), their values
  and sums;
- :mod:`~grundy.impartial.octal.rules`: rules and codes;
- :mod:`~grundy.impartial.octal.period`: periods proved by the
  periodicity theorem;
- :mod:`~grundy.impartial.octal.stats`: the rare/common split and the
  sparse kernel's mask;
- :mod:`~grundy.impartial.octal.disk`: values computed into a file;
- :mod:`~grundy.impartial.octal.misere`: misère outcomes of sums;
- :mod:`~grundy.impartial.octal.quotient`: misère quotients.
"""
