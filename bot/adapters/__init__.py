"""The doors into the game service: console, Discord, LINE. They translate; they never decide."""
