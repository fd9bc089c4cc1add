"""Cases from a third audit of ML repositories the engine had not read (issue 27).

Each snippet is a small rewrite of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify


def _layers(path: str, source: bytes) -> dict[str, int]:
    return {layer.value: n for layer, n in classify(path, source).layers.items() if n}


def test_tinygrad_nv_backend_is_an_nvidia_driver_from_first_line_to_last() -> None:
    # tinygrad/tinygrad runtime/ops_nv.py: no CUDA at all; resource-manager and UVM ioctls on
    # the NVIDIA kernel driver, through generated bindings. Every line is the NVIDIA backend.
    source = b"""\
import ctypes
from tinygrad.runtime.autogen import nv_570 as nv_gpu

class NVKIface:
  def __init__(self, fd_ctl, fd_uvm):
    self.fd_ctl, self.fd_uvm = fd_ctl, fd_uvm
    self.root = self.rm_alloc(0, nv_gpu.NV01_ROOT_CLIENT)
    self.uvm(nv_gpu.UVM_INITIALIZE, nv_gpu.UVM_INITIALIZE_PARAMS())

  def rm_alloc(self, parent, clss):
    made = nv_gpu.NVOS21_PARAMETERS(hObjectParent=parent, hClass=clss)
    self.fd_ctl.ioctl(nv_gpu.NV_ESC_RM_ALLOC, made)
    return made.hObjectNew
"""
    report = classify("tinygrad/runtime/ops_nv.py", source)
    assert report.ecosystems == {"cuda": 11}
    assert _layers("tinygrad/runtime/ops_nv.py", source) == {"vendor-path": 11}


def test_tinygrad_amd_backend_is_an_amd_driver_and_its_bindings_are_not() -> None:
    # tinygrad/tinygrad runtime/ops_amd.py: KFD ioctls and PM4 packets; the generated binding
    # module (runtime/autogen/kfd.py) only declares the names and stays portable.
    source = b"""\
from tinygrad.runtime.autogen import kfd, hsa

class AMDComputeQueue:
  def release_mem(self, addr, value):
    self.pkt3(self.pm4.PACKET3_RELEASE_MEM, addr, value)

class KFDIface:
  def create_queue(self, ring):
    return kfd.AMDKFD_IOC_CREATE_QUEUE(self.fd, ring_base_address=ring,
      queue_type=kfd.KFD_IOC_QUEUE_TYPE_COMPUTE_AQL)
"""
    assert classify("tinygrad/runtime/ops_amd.py", source).ecosystems == {"hip": 8}
    bindings = b"""\
import ctypes
AMDKFD_IOC_CREATE_QUEUE = 0xC0604B02
KFD_IOC_QUEUE_TYPE_COMPUTE_AQL = 2
class struct_kfd_ioctl_create_queue_args(ctypes.Structure): pass
"""
    assert _layers("tinygrad/runtime/autogen/kfd.py", bindings) == {"portable": 4}


def test_a_python_program_naming_a_video_format_or_regularizer_is_not_a_driver() -> None:
    source = b"""\
import cv2
rgb = cv2.cvtColor(frame, cv2.COLOR_YUV2RGB_NV12)
loss = model.regularizer(w) * self.reg_lambda
"""
    assert _layers("data/video.py", source) == {"portable": 3}
