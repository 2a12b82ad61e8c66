#!/usr/bin/env bash
# Installs (Debian packages slurm-wlm and munge) and starts a single-node
# Slurm on this machine, for the integration test of sharded runs
# (docs/cluster.md). Containers have no systemd, so the daemons are
# started directly. Idempotent: when the node is already idle it only
# says so. "slurm-local.sh stop" stops the daemons.
#
# Exit 0 when jobs can be submitted with sbatch; otherwise non-zero with
# a one-line reason on stderr.
set -u
t0=$(date +%s)
die() { echo "slurm-local: $*" >&2; exit 1; }
conf=/etc/slurm/slurm.conf

if [ "${1:-}" = stop ]; then
  pkill -x slurmd; pkill -x slurmctld; pkill -x munged
  for _ in $(seq 1 100); do
    pgrep -x slurmd >/dev/null || pgrep -x slurmctld >/dev/null || pgrep -x munged >/dev/null || exit 0
    sleep 0.1
  done
  die "daemons still running 10 s after the signal"
fi

node=$(hostname -s)
idle() { sinfo -h -n "$node" -o %T 2>/dev/null | grep -qx idle; }
if command -v sinfo >/dev/null && pgrep -x slurmctld >/dev/null && pgrep -x slurmd >/dev/null && idle; then
  echo "slurm-local: ready (already running, node $node)"
  exit 0
fi

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  [ "$(id -u)" = 0 ] || die "not root: cannot install slurm-wlm and munge"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null 2>&1 || die "apt-get update failed"
  apt-get install -y -qq slurm-wlm munge >/dev/null 2>&1 || die "apt-get install slurm-wlm munge failed"
fi

# munge: a key, its run directory, the daemon.
mkdir -p /etc/munge /run/munge /var/lib/munge /var/log/munge
if [ ! -s /etc/munge/munge.key ]; then
  dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2>/dev/null || die "cannot write the munge key"
fi
chown -R munge:munge /etc/munge /run/munge /var/lib/munge /var/log/munge 2>/dev/null
chmod 0400 /etc/munge/munge.key
chmod 0700 /etc/munge
if ! pgrep -x munged >/dev/null; then
  runuser -u munge -- /usr/sbin/munged 2>/dev/null || /usr/sbin/munged --force 2>/dev/null || die "munged does not start"
fi
for _ in $(seq 1 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
munge -n | unmunge >/dev/null 2>&1 || die "munge does not work (munge -n | unmunge)"

# slurm.conf for this one node, with what slurmd finds on it.
cpus=$(nproc)
mem=$(awk '/MemTotal/ {print int($2/1024*0.9)}' /proc/meminfo)
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/slurm
cat > "$conf" <<CONF
# Written by pgasrob scripts/slurm-local.sh: a single-node Slurm for tests.
ClusterName=pgasrob
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurm/slurmctld.pid
SlurmdPidFile=/run/slurm/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
MaxArraySize=10001
SchedulerType=sched/backfill
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
KillWait=5
Waittime=0
NodeName=$node NodeHostname=$node CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF

pgrep -x slurmctld >/dev/null || slurmctld 2>/dev/null || die "slurmctld does not start (see /var/log/slurm/slurmctld.log)"
pgrep -x slurmd >/dev/null || slurmd 2>/dev/null || die "slurmd does not start (see /var/log/slurm/slurmd.log)"

deadline=$((t0 + 60))
while [ "$(date +%s)" -lt "$deadline" ]; do
  state=$(sinfo -h -n "$node" -o %T 2>/dev/null)
  case "$state" in
    idle) echo "slurm-local: ready (node $node, $cpus cpus) in $(( $(date +%s) - t0 )) s"; exit 0 ;;
    down*|drain*|*drained*) scontrol update nodename="$node" state=resume >/dev/null 2>&1 ;;
  esac
  sleep 0.5
done
die "node $node did not become idle within 60 s (state: ${state:-none}; see /var/log/slurm/)"
