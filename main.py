# Starts the card-table companion (hold BACK while powering up to skip it).
from firmware import start

start.main()
