"""The read-only status page: a small aiohttp app on the daemon's event loop."""
