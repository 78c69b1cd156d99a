#!/bin/sh
# codethread: a docker network for SWE-agent's docker deployment with no way out.
#
# swe-rex's docker deployment talks HTTP to `swerex-remote` in the container
# through a published port (`docker run -p <free port>:8000`), so the
# container cannot run with `--network none`, and an `--internal` network gets
# no published ports. This makes a user-defined bridge `codethread-agent`
# (interface ct-agent0, no container-to-container traffic) and drops, for that
# interface only, everything its containers send to be forwarded (internet,
# other networks) and every new connection from a container to the host, while
# the replies to connections the host opened (to the published port) pass.
# Idempotent; run as root. Undo: sh agent_network.sh --down
set -eu
NET=codethread-agent
IF=ct-agent0
if [ "${1:-}" = --down ]; then
  iptables -D DOCKER-USER -i $IF -j DROP 2>/dev/null || true
  iptables -D INPUT -i $IF -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT 2>/dev/null || true
  iptables -D INPUT -i $IF -j DROP 2>/dev/null || true
  docker network rm $NET >/dev/null 2>&1 || true
  exit 0
fi
docker network inspect $NET >/dev/null 2>&1 || docker network create \
  -o com.docker.network.bridge.name=$IF \
  -o com.docker.network.bridge.enable_icc=false $NET >/dev/null
iptables -N DOCKER-USER 2>/dev/null || true
iptables -C DOCKER-USER -i $IF -j DROP 2>/dev/null || iptables -I DOCKER-USER 1 -i $IF -j DROP
iptables -C INPUT -i $IF -j DROP 2>/dev/null || iptables -I INPUT 1 -i $IF -j DROP
iptables -C INPUT -i $IF -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT 2>/dev/null \
  || iptables -I INPUT 1 -i $IF -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT
echo "network $NET ($IF) ready"
