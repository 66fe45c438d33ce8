"""The rules, pure: the shared base (game, notation, checkpoint, cards, errors, transcript,
games) here, one package per game below. Imports nothing of the project outside core/."""
