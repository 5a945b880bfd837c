/**
 * Presence on Redis, per channel: a sorted set of the connections present (`<member>\n<conn>`,
 * scored by when each expires), a hash of each member's info and one of its connection count.
 * A node refreshes its own connections' expiry (every third of `presenceTtl`); a node that dies
 * stops refreshing, and the next node to look at the channel (a join, a leave, its own refresh)
 * removes the expired connections and broadcasts the leave of each member left with none. Joins and
 * leaves are broadcast through the channel's stream, in its order with the other events, by the
 * same Lua script that changes the sets, so two nodes never both announce one member.
 */

/** The Lua of the presence commands, given the stream's trimming prelude (which sets `now`). */
export function presenceScripts(trim: string): { join: string; leave: string; refresh: string } {
  // KEYS: stream, dropped id, connections, infos, counts.
  // ARGV: window size, window age ms, pub/sub topic, presence ttl ms, then the command's own.
  const prelude = `${trim}
local max, age, topic, ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4])
local conns, infos, counts = KEYS[3], KEYS[4], KEYS[5]
local function publish(event, data)
  local keep = age + 60000
  local id = redis.call('XADD', KEYS[1], '*', 'e', event, 'd', data)
  trim(KEYS[1], KEYS[2], max, age, now, keep)
  redis.call('PEXPIRE', KEYS[1], keep)
  redis.call('PEXPIRE', KEYS[2], keep)
  redis.call('PUBLISH', topic, id .. '\\n' .. event .. '\\n' .. data)
end
local function gone(member)
  if redis.call('HINCRBY', counts, member, -1) <= 0 then
    redis.call('HDEL', counts, member)
    local info = redis.call('HGET', infos, member)
    redis.call('HDEL', infos, member)
    if info then publish('presence:leave', info) end
  end
end
local function present(member, conn, info)
  local added = redis.call('ZADD', conns, now + ttl, member .. '\\n' .. conn)
  redis.call('HSET', infos, member, info)
  if added == 1 and redis.call('HINCRBY', counts, member, 1) == 1 then publish('presence:join', info) end
end
local expired = redis.call('ZRANGEBYSCORE', conns, '-inf', now)
if #expired > 0 then
  redis.call('ZREMRANGEBYSCORE', conns, '-inf', now)
  for _, entry in ipairs(expired) do gone(string.match(entry, '^(.-)\\n')) end
end
local function kept()
  for _, key in ipairs({conns, infos, counts}) do redis.call('PEXPIRE', key, ttl * 2) end
end
`;
  return {
    // ARGV[5..7]: member, connection, info. Answers every member's info.
    join: `${prelude}
present(ARGV[5], ARGV[6], ARGV[7])
kept()
return redis.call('HVALS', infos)`,
    // ARGV[5..6]: member, connection.
    leave: `${prelude}
if redis.call('ZREM', conns, ARGV[5] .. '\\n' .. ARGV[6]) == 1 then gone(ARGV[5]) end
return 0`,
    // ARGV[5..]: member, connection, info of each of this node's connections (one brought back
    // after it expired joins again).
    refresh: `${prelude}
for i = 5, #ARGV, 3 do present(ARGV[i], ARGV[i + 1], ARGV[i + 2]) end
if #ARGV >= 5 then kept() end
return 0`,
  };
}
