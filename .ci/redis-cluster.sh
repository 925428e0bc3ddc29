#!/usr/bin/env bash
# A local Redis Cluster and a Sentinel setup on loopback, for the tests of the cluster and
# Sentinel support (docs/scaling.md). Idempotent: what already answers is reused, a node that
# died (a test's kill -9) is started again and rejoins.
#
#   .ci/redis-cluster.sh start    start (or repair) both, wait until they serve
#   .ci/redis-cluster.sh stop     shut every node down (no save)
#   .ci/redis-cluster.sh status   one line per node
#
# Cluster: 3 primaries + 3 replicas on 127.0.0.1:7000-7005
#   REDIS_CLUSTER_URL=redis+cluster://127.0.0.1:7000,127.0.0.1:7001,127.0.0.1:7002
# Sentinel: primary 7100, replica 7101, sentinels 27100-27102, master group "mymaster"
#   REDIS_SENTINEL_URL=redis+sentinel://127.0.0.1:27100,127.0.0.1:27101,127.0.0.1:27102/mymaster
# Data lives nowhere (--save "" --appendonly no, and each node's replication snapshot file is
# removed before it starts: a restarted node comes back empty); configs in $REDIS_HA_DIR (default
# /tmp/switchboard-redis-ha<offset>).
# REDIS_HA_OFFSET=10 shifts every port by 10 (7010-7015, 7110-7111, 27110-27112): a second,
# private set for the tests that kill or fail over nodes (test/scale/redis-failover.test.ts),
# so they never disturb the tests using the first.
set -euo pipefail

OFFSET="${REDIS_HA_OFFSET:-0}"
DIR="${REDIS_HA_DIR:-/tmp/switchboard-redis-ha$([ "$OFFSET" = 0 ] || echo "-$OFFSET")}"
CLUSTER_PORTS=() DATA_PORTS=() SENTINEL_PORTS=()
for i in 0 1 2 3 4 5; do CLUSTER_PORTS+=($((7000 + OFFSET + i))); done
for i in 0 1; do DATA_PORTS+=($((7100 + OFFSET + i))); done
for i in 0 1 2; do SENTINEL_PORTS+=($((27100 + OFFSET + i))); done
FIRST=${CLUSTER_PORTS[0]} PRIMARY=${DATA_PORTS[0]} SENTINEL=${SENTINEL_PORTS[0]}
NODE_TIMEOUT_MS=3000

# Outputs are captured, not piped into grep -q (an early exit would fail the pipe).
ping() { [ "$(redis-cli -h 127.0.0.1 -p "$1" ping 2>/dev/null)" = PONG ]; }
wait_for() { # seconds, command...
  local tries=$(($1 * 10)); shift
  for _ in $(seq 1 "$tries"); do "$@" && return 0; sleep 0.1; done
  return 1
}
cluster_ok() {
  for p in "${CLUSTER_PORTS[@]}"; do
    [[ "$(redis-cli -h 127.0.0.1 -p "$p" cluster info 2>/dev/null)" == *cluster_state:ok* ]] || return 1
  done
}

start_cluster() {
  mkdir -p "$DIR/cluster"
  for p in "${CLUSTER_PORTS[@]}"; do
    ping "$p" && continue
    # A replica writes the snapshot it receives to its RDB file even with --save "": each
    # node has its own, removed before it starts, so a restarted node comes back empty.
    # (One shared dump.rdb once brought a killed primary back with another node's data of
    # a minute before, and its replica resynchronised from it: a shard went back in time.)
    rm -f "$DIR/cluster/dump-$p.rdb"
    redis-server --port "$p" --bind 127.0.0.1 --cluster-enabled yes \
      --cluster-config-file "nodes-$p.conf" --cluster-node-timeout "$NODE_TIMEOUT_MS" \
      --save "" --appendonly no --dbfilename "dump-$p.rdb" --daemonize yes \
      --dir "$DIR/cluster" --logfile "$p.log"
  done
  for p in "${CLUSTER_PORTS[@]}"; do
    wait_for 10 ping "$p" || { echo "redis-cluster: node $p does not answer" >&2; exit 1; }
  done
  if [[ "$(redis-cli -h 127.0.0.1 -p "$FIRST" cluster info)" == *cluster_slots_assigned:0* ]]; then
    local nodes=()
    for p in "${CLUSTER_PORTS[@]}"; do nodes+=("127.0.0.1:$p"); done
    redis-cli --cluster create "${nodes[@]}" --cluster-replicas 1 --cluster-yes >"$DIR/cluster/create.log"
  fi
  # A restarted node (or a failover in progress) needs a few node timeouts to settle.
  wait_for 30 cluster_ok || { echo "redis-cluster: the cluster state is not ok" >&2; exit 1; }
}

start_sentinel() {
  mkdir -p "$DIR/sentinel"
  # The current primary: what the Sentinels say (after a failover it may be 7101), else 7100.
  local primary=$PRIMARY
  for s in "${SENTINEL_PORTS[@]}"; do
    local addr
    addr=$(redis-cli -h 127.0.0.1 -p "$s" sentinel get-master-addr-by-name mymaster 2>/dev/null | sed -n 2p || true)
    if [ -n "$addr" ]; then primary=$addr; break; fi
  done
  for p in "${DATA_PORTS[@]}"; do
    ping "$p" && continue
    local follow=()
    [ "$p" != "$primary" ] && follow=(--replicaof 127.0.0.1 "$primary")
    rm -f "$DIR/sentinel/dump-$p.rdb"
    redis-server --port "$p" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes \
      --dbfilename "dump-$p.rdb" --dir "$DIR/sentinel" --logfile "data-$p.log" "${follow[@]}"
  done
  for s in "${SENTINEL_PORTS[@]}"; do
    ping "$s" && continue
    local conf="$DIR/sentinel/sentinel-$s.conf"
    # Sentinel rewrites its file with what it learns: write it only once.
    [ -f "$conf" ] || cat >"$conf" <<EOF
port $s
bind 127.0.0.1
dir $DIR/sentinel
logfile sentinel-$s.log
sentinel monitor mymaster 127.0.0.1 $PRIMARY 2
sentinel down-after-milliseconds mymaster $NODE_TIMEOUT_MS
sentinel failover-timeout mymaster 10000
sentinel parallel-syncs mymaster 1
EOF
    redis-server "$conf" --sentinel --daemonize yes
  done
  for p in "${DATA_PORTS[@]}" "${SENTINEL_PORTS[@]}"; do
    wait_for 10 ping "$p" || { echo "redis-sentinel: $p does not answer" >&2; exit 1; }
  done
  sentinel_ok() {
    [[ "$(redis-cli -h 127.0.0.1 -p "$SENTINEL" sentinel ckquorum mymaster 2>/dev/null)" == OK* ]] &&
      [[ "$(redis-cli -h 127.0.0.1 -p "$SENTINEL" sentinel replicas mymaster 2>/dev/null)" == *flags* ]]
  }
  wait_for 30 sentinel_ok || { echo "redis-sentinel: no quorum or no replica known" >&2; exit 1; }
}

case "${1:-start}" in
  start)
    command -v redis-server >/dev/null || { echo "redis-cluster: redis-server is not installed" >&2; exit 1; }
    start_cluster
    start_sentinel
    echo "redis-cluster: cluster 127.0.0.1:${CLUSTER_PORTS[0]}-${CLUSTER_PORTS[5]} ok; sentinel mymaster via 127.0.0.1:${SENTINEL_PORTS[0]}-${SENTINEL_PORTS[2]} ok"
    ;;
  stop)
    for p in "${SENTINEL_PORTS[@]}" "${DATA_PORTS[@]}" "${CLUSTER_PORTS[@]}"; do
      redis-cli -h 127.0.0.1 -p "$p" shutdown nosave >/dev/null 2>&1 || true
    done
    ;;
  status)
    for p in "${CLUSTER_PORTS[@]}" "${DATA_PORTS[@]}"; do
      printf '%s %s\n' "$p" "$(redis-cli -h 127.0.0.1 -p "$p" role 2>/dev/null | head -1 || echo down)"
    done
    for s in "${SENTINEL_PORTS[@]}"; do
      printf '%s sentinel %s\n' "$s" "$(redis-cli -h 127.0.0.1 -p "$s" sentinel get-master-addr-by-name mymaster 2>/dev/null | tr '\n' ':' || echo down)"
    done
    ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
