"""A small transformer block in PyTorch: framework code that travels between vendors."""

import torch
import torch.nn as nn
import torch.nn.functional as F

from kernels.triton_layernorm import layer_norm


class Block(nn.Module):
    def __init__(self, dim: int, heads: int) -> None:
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.weight = nn.Parameter(torch.ones(dim))
        self.bias = nn.Parameter(torch.zeros(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, d = x.shape
        h = layer_norm(x, self.weight, self.bias)
        q, k, v = self.qkv(h).split(d, dim=-1)
        q = q.view(b, t, self.heads, -1).transpose(1, 2)
        k = k.view(b, t, self.heads, -1).transpose(1, 2)
        v = v.view(b, t, self.heads, -1).transpose(1, 2)
        # The attention itself is portable: PyTorch picks a backend per device.
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return x + self.proj(y.transpose(1, 2).reshape(b, t, d))


def main() -> None:
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = Block(256, 8).to(device)
    x = torch.randn(4, 128, 256, device=device)
    print(model(x).shape)
    if device == "cuda":
        torch.cuda.synchronize()


if __name__ == "__main__":
    main()
