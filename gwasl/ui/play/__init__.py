"""The player window: games in play, drawn from their views (any ruleset)."""
