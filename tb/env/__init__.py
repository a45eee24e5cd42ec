"""The lock-step verification environment of the `Sfpu` top (sfpu_env.py)."""
