#!/usr/bin/env bash
# The workflow submitted through its Slurm profile (workflow/profiles/slurm)
# to a single-node Slurm that this script starts on loopback and stops
# again: the merged output must equal one run of the tool, byte for byte.
# Run as root on a Debian machine: it installs slurm-wlm and munge where
# missing, makes a munge key where there is none, and declares one GPU
# (gres, backed by /dev/null) so that jobs asking for --gres=gpu:1 run;
# the tool itself runs with --cpu. Usage: test-slurm.sh BIN_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${1:?usage: test-slurm.sh BIN_DIR}" && pwd)
[ "$(id -u)" = 0 ] || { echo "test-slurm: run as root (it starts munged, slurmctld and slurmd)" >&2; exit 1; }
need=()
for p in slurm-wlm munge snakemake; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -q > /dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" > /dev/null
fi

work=$(mktemp -d /tmp/gpu-dp-slurm.XXXXXX)
chmod 755 "$work"
conf=$work/slurm.conf
export SLURM_CONF=$conf
stop() {
  [ -f "$work/slurmd.pid" ] && kill "$(cat "$work/slurmd.pid")" 2> /dev/null || true
  [ -f "$work/slurmctld.pid" ] && kill "$(cat "$work/slurmctld.pid")" 2> /dev/null || true
  [ -f "$work/munge/munged.pid" ] && kill "$(cat "$work/munge/munged.pid")" 2> /dev/null || true
  sleep 1
  rm -rf "$work"
}
trap stop EXIT

# munge: a key if there is none, and a daemon of this script's own.
[ -s /etc/munge/munge.key ] || { mkdir -p /etc/munge; dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2> /dev/null; }
chown munge:munge /etc/munge/munge.key 2> /dev/null || true
chmod 400 /etc/munge/munge.key
mkdir -p "$work/munge" /run/munge
chown munge:munge "$work/munge" /run/munge 2> /dev/null || true
runuser -u munge -- munged --socket="$work/munge/socket" --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" --seed-file="$work/munge/seed" --force
cpus=$(nproc)
memory=$(awk '/MemTotal/ { print int($2 / 1024 / 2) }' /proc/meminfo)
mkdir -p "$work/spool" "$work/state"
cat > "$conf" <<CONF
ClusterName=gpudp-test
SlurmctldHost=localhost
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge/socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
GresTypes=gpu
ReturnToService=2
MpiDefault=none
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory Gres=gpu:1 State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
echo "NodeName=localhost Name=gpu File=/dev/null" > "$work/gres.conf"
slurmctld -f "$conf"
slurmd -f "$conf"
for _ in $(seq 60); do
  sinfo -h -o %T 2> /dev/null | grep -q idle && break
  sleep 1
done
sinfo -h -o "%P %T %G" | grep -q idle || { echo "test-slurm: the node did not come up"; tail -5 "$work"/slurm*.log; exit 1; }
echo "slurm: $(sinfo -h -o '%P %D %T %G %c')"

# The same case as test-workflow.sh's sw_sam, submitted through the profile.
cd "$work"
printf '>r0\nACGTTGCATGCATGCAAGTCCTAGGCTAGCTAGGATCGATCGGGATCC\n>r1\nTTGGCCAATCGATCGGCTAGCTAGCATCGACTGACTGCATGCA\n>r2\nGGGCCCAAATTTCGCGATATCGCGCGATATAGCGCTAGA\n' > reads.fa
"$bin/gpu-sw" --cpu --format sam --top 2 reads.fa "$root/data/dna_target.fa" -o "$work/hits.sam" 2> /dev/null
mv hits.sam hits.sam.single
cat > slurm.yaml <<YAML
tool: gpu-sw
options: [--cpu, --format, sam, --top, "2"]
query: reads.fa
inputs: [$root/data/dna_target.fa]
shards: 3
output: $work/hits.sam
bin_dir: $bin
YAML
snakemake -s "$root/workflow/Snakefile" --configfile slurm.yaml --profile "$root/workflow/profiles/slurm" \
  --latency-wait 5 > snakemake.log 2>&1 || { echo "test-slurm: snakemake failed"; tail -30 snakemake.log; exit 1; }
jobs=$(grep -c "Submitted job .* with external jobid" snakemake.log || true)
echo "slurm: $jobs jobs submitted through sbatch"
if cmp -s hits.sam hits.sam.single && [ "$jobs" = 3 ]; then
  echo "test-slurm: 1 passed, 0 failed (3 shards on Slurm, the merged SAM equal to one run's)"
else
  echo "test-slurm: 0 passed, 1 failed"; diff hits.sam.single hits.sam | head; exit 1
fi
