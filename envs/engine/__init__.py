"""The pure rules engine: cards, hand evaluation, betting, pots and game state.

Nothing here imports gymnasium, pettingzoo or torch.
"""
