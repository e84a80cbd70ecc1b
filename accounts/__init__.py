"""The accounts app: sign-up, log-in, the account page (bot account, API tokens, mail
settings)."""
