"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h41-random-a).

The pool is ``/work/pool-h40.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 91-100. One had no snapshot: alogeclock/Jungle-D3D11-Engine. Fifteen files of each
remaining repository were sampled with ``random.Random("owner/name")`` over every file lockin
counts, and labelled before any fix, with the files lockin calls non-portable (up to twenty)
and GPU-looking files it calls portable (up to ten), and three commits touching GPU code
judged against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a
pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- AmesingFlank/taichi.js: Taichi for the browser, kernels in JavaScript compiled to WGSL ----


def test_taichi_js_arrow_kernel_is_wgsl_kernel_code() -> None:
    # src/tests/TestFieldAccessor.ts: the arrow function handed to ti.kernel is compiled to a
    # WGSL compute shader. Before, the 65 files defining kernels this way were portable, and a
    # commit growing a kernel passed the gate.
    source = b"""\
import * as ti from '../taichi';

async function testFill(): Promise<boolean> {
    await ti.init();
    let s = ti.field(ti.f32, [4]);
    ti.addToKernelScope({ s });
    let kernel = ti.kernel(() => {
        for (let i of range(4)) {
            s[i] = i * 2;
        }
    });
    kernel();
    return (await s.get([1])) == 2;
}
"""
    assert _rules("src/tests/TestFill.ts", source) == {"wgsl.taichi-js-kernel"}
    assert _layers("src/tests/TestFill.ts", source) == {"kernel": 5, "portable": 8}


def test_taichi_js_class_kernel_after_its_argument_types_is_kernel_code() -> None:
    # src/engine/Renderer.ts: ti.classKernel takes `this` and an object literal of argument
    # types before the function; the function, not the object literal, is the kernel.
    source = b"""\
export class Blur {
    init() {
        this.blurKernel = ti.classKernel(
            this,
            { camera: Camera.getKernelType() },
            (camera: any) => {
                for (let I of ti.ndrange(16, 16)) {
                    this.out[I] = this.inp[I] * camera.near;
                }
            }
        );
    }
}
"""
    assert _layers("src/engine/Blur.ts", source) == {"kernel": 8, "portable": 5}


def test_taichi_js_device_function_with_typed_arrow_is_kernel_code() -> None:
    # src/language/frontend/Library.ts: ti.func device helpers, TypeScript-typed arrows.
    source = b"""\
import * as ti from '../../taichi';
let lerp = ti.func((a: ti.types.vector, b: ti.types.vector, t: number): ti.types.vector => {
    return a + (b - a) * t;
});
export { lerp };
"""
    assert _layers("src/language/frontend/Library.ts", source) == {"kernel": 3, "portable": 2}


def test_taichi_js_host_code_using_the_engine_stays_portable() -> None:
    # examples/home-alone/index.js: builds a scene and renders it through the library; the
    # kernels live in the library, not here. A kernel handed by name holds no body to claim.
    source = b"""\
import * as ti from '../../../dist/taichi.dev.js';

let main = async () => {
    await ti.init();
    let scene = new ti.engine.Scene();
    let renderer = new ti.engine.Renderer(scene, canvas);
    await renderer.init();
    let step = ti.kernel(stepBody)
    let frame = () => {
        renderer.render(camera);
        requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
};
"""
    assert _layers("examples/home-alone/index.js", source) == {"portable": 13}
