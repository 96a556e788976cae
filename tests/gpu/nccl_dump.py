# One rank, NCCL backend, one all_reduce: makes NCCL detect and dump its topology.
import os, torch, torch.distributed as dist
os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", "29517")
dist.init_process_group("nccl", rank=0, world_size=1, device_id=torch.device("cuda:0"))
t = torch.ones(1 << 20, device="cuda")
dist.all_reduce(t)
torch.cuda.synchronize()
print("all_reduce sum", t[0].item(), "nccl", torch.cuda.nccl.version())
dist.destroy_process_group()
