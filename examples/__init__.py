"""Example programs (`sfpu sim example:NAME`), an example kernel header and a kernel author's test to copy."""
