"""What the web server, the workers and the features share: settings, jobs and their queue,
caches, delivery log, locks, metrics, the job context and running one job.

Interfaces with their in-memory versions; the Redis versions live in bot.scale. Only the two
entry points (bot.server.app and bot.worker) choose between them.
"""
