"""Scale-out on Redis (issue 7): what lets N web replicas and M `lockin worker` processes
share one truth. Used only when `REDIS_URL` is set; without it the server runs everything in
one process with the in-memory versions in bot.runtime.

- connection: the Redis client (timeouts, retries) and the key names everything shares
- codec: signed values, so nothing read back from Redis is trusted without the App's key
- caches: delivery log (SET NX with TTL), blob and census caches
- locks: per-key lock with a lease, a fencing token and an owner check on release
- heads: "newest head wins" for pull-request jobs
- queue: the web side of the arq job queue
- tokens: installation tokens shared (encrypted) between processes
- backend: all of the above built from the settings
"""
