"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h46-random-i).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 618-625. Three could not be audited: integritynoble/Physics_World_Model (snapshot
over 500 MB), FluidsSim/lilytorch (no snapshot) and rezics/lattice-axiom (Markdown only: no
file lockin counts). Fifteen files of each remaining repository were sampled with
``random.Random("owner/name")`` over every file lockin counts, and labelled before any fix,
with the files lockin calls non-portable and GPU-looking files it calls portable; three commits
touching GPU code were drawn with ``random.Random("owner/name:commits")``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- MatchaChoco010/toy-cpu-pathtracing: a spectral path tracer in Rust, on the CPU ---------


def test_pathtracer_metal_material_is_portable() -> None:
    # scene/src/material/impls/metal_material.rs: "metal" is the surface (gold, silver,
    # copper) a conductor BSDF shades, not Apple's API. Before, metal.rust-backend-type took
    # MetalMaterial and MetalType for a Metal back end's types: 32 vendor-path lines here and
    # 64 over six files of a CPU renderer.
    source = b"""\
use crate::material::bsdf::ConductorBsdf;

#[derive(Debug, Clone, Copy)]
pub enum MetalType {
    Gold,
    Copper,
}

pub struct MetalMaterial {
    metal_type: MetalType,
    roughness: f32,
}

impl MetalMaterial {
    pub fn new(metal_type: MetalType, roughness: f32) -> Self {
        Self { metal_type, roughness }
    }

    fn eta(&self) -> f32 {
        match self.metal_type {
            MetalType::Gold => 0.2,
            MetalType::Copper => 0.3,
        }
    }
}
"""
    assert _layers("scene/src/material/impls/metal_material.rs", source) == {"portable": 21}


def test_pathtracer_scene_using_the_metal_material_is_portable() -> None:
    # renderer/src/scene/scene_6.rs: a Cornell box with a gold bunny.
    source = b"""\
use scene::{CreatePrimitiveDesc, LambertMaterial, MetalMaterial, MetalType, Scene};

pub fn load_scene(scene: &mut Scene) {
    let geom = scene.load_obj("./assets/bunny.obj");
    scene.create_primitive(CreatePrimitiveDesc::GeometryPrimitive {
        geometry_index: geom,
        surface_material: MetalMaterial::new(MetalType::Gold, 0.0),
    });
}
"""
    assert _layers("renderer/src/scene/scene_6.rs", source) == {"portable": 8}


def test_metal_back_end_types_beside_a_material_still_count() -> None:
    # The negative: a crate's Metal back end (MetalDevice, MetalBuffer) stays vendor-path,
    # beside a metal material in the same file.
    source = b"""\
use crate::backend::metal::{MetalDevice, MetalBuffer};

pub fn upload(device: &MetalDevice, data: &[f32]) -> MetalBuffer {
    device.new_buffer_with_data(data)
}

pub fn shade(m: &MetalMaterial) -> f32 {
    m.roughness
}
"""
    assert _rules("src/backend/metal/upload.rs", source) == {"metal.rust-backend-type"}
    # The use and the signature holding MetalDevice; the material's line is not the back end's.
    assert _layers("src/backend/metal/upload.rs", source) == {"vendor-path": 2, "portable": 5}


def test_pathtracer_spectrum_fit_on_a_cuda_device_is_vendor_path() -> None:
    # rgb_to_spec/python/main.py (checked right): the table fit runs its tensors on a device
    # named "cuda" outright.
    source = b"""\
import torch

DEVICE = "cuda"
DTYPE = torch.float32
x_bar = torch.as_tensor([0.1, 0.2], device=DEVICE, dtype=DTYPE)
"""
    assert _rules("rgb_to_spec/python/main.py", source) == {"torch.device-string"}


# -- jalexcole/webgpu-java: Java bindings to wgpu-native (WebGPU) --------------------------


def test_webgpu_java_metal_layer_surface_source_is_portable() -> None:
    # webgpu-impl/src/main/java/org/webgpu/impl/spi/SurfaceSourceMetalLayerProviderImpl.java
    # (GPU-looking extra, checked right): WebGPU's own surface descriptor for a macOS window's
    # layer, one of its per-windowing-system sources beside X11, Wayland and Win32.
    source = b"""\
package org.webgpu.impl.spi;

import java.lang.foreign.MemorySegment;
import org.webgpu.panama.WGPUSurfaceSourceMetalLayer;

public class SurfaceSourceMetalLayerProviderImpl {
    public MemorySegment layer(MemorySegment structPtr) {
        return WGPUSurfaceSourceMetalLayer.layer(structPtr);
    }
}
"""
    assert _layers("webgpu-impl/src/main/java/org/webgpu/impl/spi/Surface.java", source) == {
        "portable": 8
    }


def test_webgpu_java_wgsl_text_block_is_kernel_code() -> None:
    # webgpu-impl/src/integration-test/java/org/webgpu/impl/RunShaderApiIT.java (checked
    # right): a WGSL compute shader in a Java text block handed to createShaderModule.
    source = b'''\
class RunShaderIT {
    void run(Device device) {
        final ShaderSourceWGSL wgsl = new ShaderSourceWGSL();
        wgsl.code("""
                @group(0) @binding(0)
                var<storage, read_write> out : array<f32>;

                @compute @workgroup_size(4)
                fn main(@builtin(global_invocation_id) gid : vec3<u32>) {
                    out[gid.x] = f32(gid.x) * 2.0;
                }
                """);
        device.createShaderModule(wgsl);
    }
}
'''
    assert _rules("src/integration-test/java/RunShaderIT.java", source) == {"wgsl.source-string"}
    assert _layers("src/integration-test/java/RunShaderIT.java", source).get("kernel", 0) >= 6
