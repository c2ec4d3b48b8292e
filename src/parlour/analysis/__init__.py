"""Analysis: simulations of many games with agents, and the statistics of their results."""
