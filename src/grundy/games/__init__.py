"""Built-in games with rules of their own: police and thief
(:mod:`grundy.games.police`)."""
