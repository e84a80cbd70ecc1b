"""Pure rules of Dutch card games: no Django, no I/O, no clock, no global random state.

Given a variant, a seed and a list of actions, the engine always computes the same
states. See ``engine.protocol`` for the interface every game module follows.
"""
