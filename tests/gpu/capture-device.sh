#!/bin/bash
# Captures the H200 machine's truth and pcieaudit's view of it into $OUT.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
D=/tmp/h200; F=$D/sysfs; mkdir -p $D/out $F/devices
cd "$(dirname "$0")"; DEV=$PWD
export LD_LIBRARY_PATH=$DEV/lib
run() { local name=$1; shift; echo "== $name: $*"; timeout 120 "$@" >$D/out/$name 2>&1; echo "rc=$?" >>$D/out/$name; }
# Start-up without the module against lspci -vvv, paired runs
# (tests/bench/startup.py, beside this script): the machine has no lspci,
# so lspci and its libraries come in this folder and lib/, and pci.ids
# when the machine lacks one (the CLI reads the same through libpci).
# --startup stops after it.
if [ -x $DEV/lspci ]; then
  [ -e /usr/share/misc/pci.ids ] || { [ -f $DEV/pci.ids ] && mkdir -p /usr/share/misc && cp $DEV/pci.ids /usr/share/misc/ && echo "pci.ids: carried"; }
  # A previous build beside it, pcieaudit-cli-old, is measured in the same rounds.
  base=(); [ -x $DEV/pcieaudit-cli-old ] && base=(--base $DEV/pcieaudit-cli-old)
  run startup.md python3 startup.py --cli $DEV/pcieaudit-cli-new "${base[@]}" --lspci $DEV/lspci --runs ${STARTUP_RUNS:-50}
  cp $D/out/startup.md $OUT/ 2>/dev/null; cat $D/out/startup.md
fi
[ "${1:-}" = --startup ] && exit 0
run uname.txt uname -a
run smi-topo-m.txt nvidia-smi topo -m
run smi-q.txt nvidia-smi -q
run smi-q.xml nvidia-smi -q -x
run smi-nvlink-s.txt nvidia-smi nvlink -s
run smi-topo-p2p-r.txt nvidia-smi topo -p2p r
run nvml.json python3 nvml_record.py
run nvidia-version.txt cat /proc/driver/nvidia/version
run kallsyms-dmabuf.txt sh -c "grep -E ' dma_buf_export\$| dma_buf_export\s' /proc/kallsyms | sed 's/^[0-9a-f]*/0000000000000000/'"
PCIEAUDIT_NVML_LIB=/nonexistent/libnvidia-ml.so.1 run pa-new-nolib-topo.txt $DEV/pcieaudit-cli-new topo --sysfs /sys
PCIEAUDIT_NVML_LIB=/nonexistent/libnvidia-ml.so.1 run pa-new-nolib-check.txt $DEV/pcieaudit-cli-new check --profile gpudirect --sysfs /sys
NCCL_TOPO_DUMP_FILE=$D/out/nccl-topo.xml NCCL_GRAPH_DUMP_FILE=$D/out/nccl-graph.xml NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,GRAPH,ENV \
  run nccl-log.txt python3 nccl_dump.py
run modules.txt cat /proc/modules
run kconfig.txt sh -c 'zcat /proc/config.gz 2>/dev/null || cat /boot/config-$(uname -r) 2>/dev/null; echo; ls /sys/module | tr "\n" " "; echo; ls -la /sys/class/kfd /sys/kernel/dmabuf 2>&1; ls /dev/dma_heap 2>&1; grep -i dma /proc/kallsyms | grep -i -E "p2p|dma_buf_dynamic" | head'
run lscpu.txt sh -c 'lscpu; cat /sys/devices/system/node/online; for n in /sys/devices/system/node/node*; do echo $n $(cat $n/cpumap) $(cat $n/cpulist); done'
for tool in new; do
  C=$DEV/pcieaudit-cli-$tool; [ -x $C ] || continue
  for nv in on off; do
    [ $nv = off ] && export PCIEAUDIT_NO_NVML=1 || unset PCIEAUDIT_NO_NVML
    for cmd in report topo "check --profile gpudirect"; do
      n=$(echo "$cmd" | tr -d ' -' ); run pa-$tool-$nv-$n.txt $C $cmd --sysfs /sys
      run pa-$tool-$nv-$n.json $C --json $cmd --sysfs /sys
    done
    [ $tool = new ] && run pa-$tool-$nv-ncclxml.txt $C topo --sysfs /sys --nccl-xml $D/out/pa-$tool-$nv-nccl.xml
  done
done
unset PCIEAUDIT_NO_NVML
if [ -f $D/out/pa-new-on-nccl.xml ]; then
  NCCL_TOPO_FILE=$D/out/pa-new-on-nccl.xml NCCL_TOPO_DUMP_FILE=$D/out/nccl-topo-from-ours.xml NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,GRAPH \
    run nccl-log-from-ours.txt python3 nccl_dump.py
fi
# sysfs fixture in tests' layout: devices/<bdf>/ files, driver as a file, sysfs_path
for p in /sys/bus/pci/devices/*; do
  b=$(basename $p); o=$F/devices/$b; mkdir -p $o
  for f in config resource numa_node local_cpulist local_cpus class vendor device subsystem_vendor subsystem_device revision \
           current_link_speed current_link_width max_link_speed max_link_width enable irq; do
    [ -r $p/$f ] && cat $p/$f >$o/$f 2>/dev/null
  done
  [ -e $p/driver ] && basename $(readlink $p/driver) >$o/driver
  [ -e $p/iommu_group ] && basename $(readlink $p/iommu_group) >$o/iommu_group
  readlink $p | sed 's,.*devices/,,' >$o/sysfs_path
  ls -la $p/ >$o/ls.txt 2>&1
done
cat /proc/modules >$F/modules; cat /proc/driver/nvidia/version >$F/nvidia_version; grep -E ' dma_buf_export$' /proc/kallsyms | sed 's/^[0-9a-f]*/0000000000000000/' >$F/kallsyms; cat /proc/cmdline >$F/cmdline; cat /proc/cpuinfo >$F/cpuinfo; cat /sys/devices/system/node/online >$F/node_online
# The groups' directory itself: without it a copy cannot tell "no IOMMU" (an
# empty directory, as on the lent H200) from "not copied".
[ -d /sys/kernel/iommu_groups ] && for g in /sys/kernel/iommu_groups/ /sys/kernel/iommu_groups/*/; do
  [ -d $g ] && mkdir -p $F/kernel/iommu_groups/${g#/sys/kernel/iommu_groups/} && { [ -r ${g}type ] && cat ${g}type >$F/kernel/iommu_groups/${g#/sys/kernel/iommu_groups/}type; true; }
done
mkdir -p $F/node; for n in /sys/devices/system/node/node*; do cat $n/cpumap >$F/node/$(basename $n)-cpumap; cat $n/cpulist >$F/node/$(basename $n)-cpulist; done
tar -C $D -czf $OUT/h200.tar.gz out sysfs
cp $D/out/smi-topo-m.txt $D/out/nccl-topo.xml $OUT/ 2>/dev/null
cp $D/out/pa-new-on-ncclxml.txt $OUT/ 2>/dev/null
ls -la $D/out; cat $D/out/smi-topo-m.txt; head -c 3000 $D/out/nccl-topo.xml; tail -5 $D/out/nccl-log.txt; cat $D/out/pa-new-on-topo.txt $D/out/pa-new-on-checkprofilegpudirect.txt $D/out/pa-new-off-topo.txt $D/out/pa-new-nolib-topo.txt $D/out/nvidia-version.txt $D/out/kallsyms-dmabuf.txt; cat $D/out/pa-new-on-nccl.xml; grep -iE 'topo|xml|warn' $D/out/nccl-log-from-ours.txt | head -20; cat $D/out/nccl-topo-from-ours.xml
