#!/usr/bin/env bash
# Installs (Debian packages slurm-wlm and munge) and starts a single-node
# Slurm on this machine, for the integration test of sharded runs
# (docs/cluster.md). Containers have no systemd, so the daemons are
# started directly, as root. Idempotent: when the daemons are up and the
# node can take jobs it only says so. "slurm-local.sh stop" stops the
# daemons (slurmd, slurmctld, munged).
#
# Exit 0 when jobs can be submitted with sbatch (one line on stdout);
# otherwise non-zero with a one-line reason on stderr.
set -u
export DEBIAN_FRONTEND=noninteractive
export PATH="$PATH:/usr/sbin:/sbin"
t0=${EPOCHREALTIME/[.,]/}
# elapsed: seconds since the start, to a tenth.
elapsed() { local d=$((${EPOCHREALTIME/[.,]/} - t0)); echo "$((d / 1000000)).$((d / 100000 % 10))"; }
die() { echo "slurm-local: $*" >&2; exit 1; }
conf=/etc/slurm/slurm.conf # Debian's slurm reads this (scontrol show config: SLURM_CONF)
logs=/var/log/slurm
node=$(hostname -s)

# pid NAME PIDFILE: the pid of the running daemon NAME, from its pid file
# (or, without one, by its exact process name); fails when it is not up.
pid() {
  local p=""
  [ -r "$2" ] && read -r p <"$2" 2>/dev/null
  if [ -n "$p" ] && [ "$(cat /proc/"$p"/comm 2>/dev/null)" = "$1" ]; then
    echo "$p"
    return 0
  fi
  pgrep -x "$1" 2>/dev/null | head -n 1 | grep .
}
ctld_pid() { pid slurmctld /run/slurm/slurmctld.pid; }
slurmd_pid() { pid slurmd /run/slurm/slurmd.pid; }
munged_pid() { pid munged /run/munge/munged.pid; }

# stopd NAME PIDFILE ...: TERM those daemons that run, then wait up to
# 10 s for them to end (KILL after that).
stopd() {
  local p ps=() names=()
  while [ $# -ge 2 ]; do
    if p=$(pid "$1" "$2"); then
      kill "$p" 2>/dev/null
      ps+=("$p")
      names+=("$1")
    fi
    shift 2
  done
  [ ${#ps[@]} -gt 0 ] || return 0
  for _ in $(seq 1 100); do
    kill -0 "${ps[@]}" 2>/dev/null || break # true while any of them lives
    sleep 0.1
  done
  local left=()
  for p in "${ps[@]}"; do kill -0 "$p" 2>/dev/null && left+=("$p"); done
  [ ${#left[@]} -eq 0 ] && return 0
  kill -KILL "${left[@]}" 2>/dev/null
  sleep 0.2
  die "${names[*]}: pid ${left[*]} did not end within 10 s of SIGTERM (killed)"
}

if [ "${1:-}" = stop ]; then
  stopd slurmd /run/slurm/slurmd.pid slurmctld /run/slurm/slurmctld.pid munged /run/munge/munged.pid
  exit 0
elif [ $# -gt 0 ]; then
  echo "usage: $0 [stop]" >&2
  exit 2
fi

# The node can take jobs (a '*' suffix, not responding, or drain do not count).
usable() { case "$1" in idle | mixed | allocated | completing) return 0 ;; esac; return 1; }
state() { sinfo -h -n "$node" -o %T 2>/dev/null | head -n 1; }

# genconf: sets new (the slurm.conf for this one node, with the hardware
# that slurmd -C finds on it) and cpus; on failure sets why.
genconf() {
  local hw
  hw=$(slurmd -C 2>/dev/null | grep -m 1 '^NodeName=') || { why="slurmd -C reports no node"; return 1; }
  hw=${hw#NodeName=* }
  cpus=$(sed -n 's/.*CPUs=\([0-9]*\).*/\1/p' <<<"$hw")
  [ -n "$cpus" ] || { why="slurmd -C reports no CPUs: $hw"; return 1; }
  new=$(
    cat <<CONF
# Written by pgasrob scripts/slurm-local.sh: a single-node Slurm for tests.
ClusterName=pgasrob
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurm/slurmctld.pid
SlurmdPidFile=/run/slurm/slurmd.pid
SlurmctldLogFile=$logs/slurmctld.log
SlurmdLogFile=$logs/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
MaxArraySize=10001
MaxJobCount=100000
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
KillWait=5
Waittime=0
NodeName=$node NodeAddr=127.0.0.1 NodeHostname=$node $hw State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
  )
}

# Already up with this configuration: say so and stop here.
if command -v sinfo >/dev/null && command -v slurmd >/dev/null && munged_pid >/dev/null && ctld_pid >/dev/null &&
  slurmd_pid >/dev/null && munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && genconf && [ "$(cat "$conf" 2>/dev/null)" = "$new" ] && usable "$(state)"; then
  echo "slurm-local: ready (node $node, $cpus cpus) in $(elapsed) s"
  exit 0
fi

[ "$(id -u)" = 0 ] || die "must run as root (installs packages, starts daemons as root)"

for b in slurmctld slurmd sbatch munged; do
  if ! command -v "$b" >/dev/null; then
    apt-get update -qq >/dev/null 2>&1 || die "apt-get update failed"
    apt-get install -y -qq -o Dpkg::Options::=--force-confold slurm-wlm munge >/dev/null 2>&1 ||
      die "apt-get install -y slurm-wlm munge failed"
    break
  fi
done
for b in slurmctld slurmd sbatch sinfo scontrol munged munge unmunge; do
  command -v "$b" >/dev/null || die "$b missing after installing slurm-wlm and munge"
done

# munge: a key, its directories, the daemon (as user munge).
mkdir -p /etc/munge /run/munge /var/lib/munge /var/log/munge
if [ ! -s /etc/munge/munge.key ]; then
  if command -v mungekey >/dev/null; then
    mungekey --create --keyfile=/etc/munge/munge.key >/dev/null 2>&1
  fi
  [ -s /etc/munge/munge.key ] ||
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2>/dev/null || die "cannot write /etc/munge/munge.key"
fi
chown munge:munge /etc/munge /etc/munge/munge.key /run/munge /var/lib/munge /var/log/munge || die "no user munge"
chmod 0700 /etc/munge /var/lib/munge /var/log/munge
chmod 0755 /run/munge
chmod 0400 /etc/munge/munge.key
startmunged() {
  munged_pid >/dev/null && return 0
  rm -f /run/munge/munge.socket.2 /run/munge/munge.socket.2.lock /run/munge/munged.pid
  runuser -u munge -- /usr/sbin/munged </dev/null >/dev/null 2>&1 ||
    /usr/sbin/munged --force </dev/null >/dev/null 2>&1 || die "munged does not start (see /var/log/munge/munged.log)"
}
mungeok() {
  for _ in $(seq 1 50); do
    munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  return 1
}
startmunged
if ! mungeok; then # a munged on its way out, or one that lost its socket: once more
  stopd munged /run/munge/munged.pid
  startmunged
  mungeok || die "munge does not work (munge -n | unmunge fails; see /var/log/munge/munged.log)"
fi

genconf || die "$why"
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd "$logs" /run/slurm
if [ "$(cat "$conf" 2>/dev/null)" != "$new" ]; then
  printf '%s\n' "$new" >"$conf" || die "cannot write $conf"
  # A new node or scheduler definition needs fresh daemons.
  stopd slurmd /run/slurm/slurmd.pid slurmctld /run/slurm/slurmctld.pid
fi

t1=$(date +%s) fresh=0
if ! ctld_pid >/dev/null; then
  slurmctld </dev/null >>"$logs/slurmctld.start" 2>&1 ||
    die "slurmctld does not start: $(tail -n 1 "$logs/slurmctld.start") (see $logs/slurmctld.log)"
fi
if ! slurmd_pid >/dev/null; then
  fresh=1
  slurmd </dev/null >>"$logs/slurmd.start" 2>&1 ||
    die "slurmd does not start: $(tail -n 1 "$logs/slurmd.start") (see $logs/slurmd.log)"
fi

# registered: the slurmd started here has registered with slurmctld (the
# node's state alone may be one slurmctld recovered from its last run).
registered() {
  local t
  [ "$fresh" = 1 ] || return 0
  t=$(scontrol show node "$node" 2>/dev/null | sed -n 's/.*SlurmdStartTime=\([0-9T:-]*\).*/\1/p')
  [ -n "$t" ] && [ "$(date -d "$t" +%s 2>/dev/null || echo 0)" -ge "$t1" ]
}

st=""
while [ $(($(date +%s) - t1)) -lt 60 ]; do
  st=$(state)
  if usable "$st" && registered; then
    echo "slurm-local: ready (node $node, $cpus cpus) in $(elapsed) s"
    exit 0
  fi
  case "$st" in
    down* | drain* | fail*) scontrol update nodename="$node" state=resume >/dev/null 2>&1 ;;
  esac
  ctld_pid >/dev/null || die "slurmctld exited (see $logs/slurmctld.log)"
  slurmd_pid >/dev/null || die "slurmd exited (see $logs/slurmd.log)"
  sleep 0.2
done
die "slurmd did not register within 60 s (node $node state: ${st:-unknown}; see $logs/)"
