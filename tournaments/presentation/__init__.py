"""Words and payloads: what a game and its moves look like to a person or a client."""
