"""Impartial games: Nim, Grundy values and sums of games given by a move
function, and take-and-break games (:mod:`grundy.impartial.octal`)."""
