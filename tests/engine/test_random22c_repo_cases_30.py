"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h57-rest-c).

The sub-pool is ``/work/pool-h58-rest.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold NO GPU term (the
complement of ``/work/pool/h55_gpu_rule.py``, written in ``/work/pool/h58_rest_rule.py``). This
lane took sub-pool positions 17-24. Two were skipped: tensorflow4545/VIT-AP_Website-1 (18) and
vp0712/voxelveda-app (20) had no snapshot to fetch. Read were
aliahmed369000000-ai/Neural-Service-Mesh (a self-described "digital being" in Python and numpy:
episodic memory, a hand-written LoRA adapter in numpy, a knowledge store and an HTML
dashboard, no GPU code), arygup/REMODEL-LLM-Refactoring-and-Modernizing-Existing-Legacy-Code-
using-Quantized-LLMs (a research harness that asks local Ollama models to translate C to Java,
with pycparser's fake libc headers and the generated Java files of each model run),
megatron-vektorlab/carry-dashboard (a small Next.js dashboard of trading figures),
PeerInfinity/Archipelago-CC (the Archipelago multi-game randomizer: Python "worlds" for many
console games, ROM patchers, a threaded C compressor for Ocarina of Time ROMs, no GPU code, but
game item names such as "Metal Blade", "Hippo Zone" and "Torch" everywhere),
zgxotsycl-dotcom/zgzegg (a Flutter stick-figure animation app drawing on dart:ui's Canvas, with
decompiled Android APKs committed beside it) and csharperBoy/NexusPlatform (a modular .NET
business platform with a React front end). Fifteen files of each repository (all five of the
dashboard) were sampled with ``random.Random("owner/name")`` over every file lockin counts and
labelled before any fix, with the files lockin calls non-portable (none) and GPU-looking files
it calls portable (up to 10) checked apart, and up to three commits touching GPU-looking text
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. No file and no commit
was wrong before: every sampled file is portable and lockin said so, and the three commits (an
APK dump, fake libc headers, a front-end lockfile) add no vendor-bound line. The tests pin the
verdicts worth keeping, mostly words that look like GPU terms in code that has none. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- PeerInfinity/Archipelago-CC: game randomizer, GPU-ish words as item names --------------


def test_game_item_names_with_metal_and_torch_are_portable() -> None:
    # worlds/mm2/items.py, worlds/oot/LocationList.py (GPU-looking, portable): item and
    # location tables whose names hold "Metal", "Torch" and "Hippo".
    source = b"""\
from typing import NamedTuple


class ItemInfo(NamedTuple):
    code: int
    progression: bool = False


ITEMS = {
    "Metal Blade": ItemInfo(0x7A0001, True),
    "Metal Man Stage Access": ItemInfo(0x7A0101, True),
    "Torch Room Small Key": ItemInfo(0x7A0201),
    "Hippo Zone Exit": ItemInfo(0x7A0301),
}
"""
    path = "worlds/mm2/items.py"
    assert _layers(path, source).keys() == {"portable"}
    assert _rules(path, source) == set()


def test_opengoal_launcher_text_in_a_game_client_is_portable() -> None:
    # worlds/jakanddaxter/agents/repl_client.py (GPU-looking, portable): "OpenGOAL" is the
    # name of a game engine port, not OpenGL.
    source = b"""\
import asyncio


class ReplClient:
    async def connect(self, host: str, port: int) -> None:
        try:
            self.reader, self.writer = await asyncio.open_connection(host, port)
        except ConnectionRefusedError:
            print("Start the OpenGOAL Launcher, enable the mod, then reconnect.")
"""
    path = "worlds/jakanddaxter/agents/repl_client.py"
    assert _layers(path, source).keys() == {"portable"}


def test_threaded_rom_compressor_in_c_is_portable() -> None:
    # worlds/oot/data/Compress/src/compressor.c (GPU-looking, portable): pthreads split the
    # ROM files between worker threads; nothing runs on a device.
    source = b"""\
#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t next_lock;
static int next_file;

static void *worker(void *arg)
{
    for (;;) {
        pthread_mutex_lock(&next_lock);
        int idx = next_file++;
        pthread_mutex_unlock(&next_lock);
        if (idx >= *(int *)arg)
            return NULL;
    }
}

int spawn(int nthreads, int nfiles)
{
    pthread_t *ts = malloc(sizeof(pthread_t) * nthreads);
    for (int i = 0; i < nthreads; i++)
        pthread_create(&ts[i], NULL, worker, &nfiles);
    for (int i = 0; i < nthreads; i++)
        pthread_join(ts[i], NULL);
    free(ts);
    return 0;
}
"""
    path = "worlds/oot/data/Compress/src/compressor.c"
    assert _layers(path, source).keys() == {"portable"}


# -- aliahmed369000000-ai/Neural-Service-Mesh: numpy "neural" code -------------------------


def test_numpy_lora_adapter_naming_pytorch_in_a_comment_is_portable() -> None:
    # ai/lora_adapter.py: a LoRA adapter written in numpy; PyTorch is only named in a comment.
    source = b"""\
import math
import numpy as np


class LowRankAdapter:
    def __init__(self, d_in: int, d_out: int, rank: int = 8) -> None:
        # Kaiming-style init, the same as the PyTorch LoRA reference
        bound = 1.0 / math.sqrt(d_in)
        self.A = np.random.uniform(-bound, bound, (rank, d_in))
        self.B = np.zeros((d_out, rank))

    def forward(self, x: np.ndarray) -> np.ndarray:
        return x @ self.A.T @ self.B.T
"""
    path = "ai/lora_adapter.py"
    assert _layers(path, source).keys() == {"portable"}


def test_hippocampus_in_a_memory_docstring_is_not_hip() -> None:
    # ai/episodic_memory.py (GPU-looking, portable): "Hippocampus" in a docstring.
    source = b'''\
"""Episodic store modelled on the brain.

  - Hippocampus -> fast store of raw experiences
  - Sleep       -> consolidation into long-term memory
"""
import sqlite3


def open_store(path: str) -> sqlite3.Connection:
    return sqlite3.connect(path)
'''
    path = "ai/episodic_memory.py"
    assert _layers(path, source).keys() == {"portable"}
    assert _rules(path, source) == set()


# -- arygup/REMODEL-...: Ollama-driven C to Java translation ------------------------------


def test_ollama_chat_client_is_portable() -> None:
    # java_translator.py: talks to a local Ollama server; the model runs elsewhere.
    source = b"""\
import ollama


def translate(c_source: str, model: str = "deepseek-coder-v2") -> str:
    reply = ollama.chat(
        model=model,
        messages=[{"role": "user", "content": "Rewrite in Java:\\n" + c_source}],
    )
    return reply["message"]["content"]
"""
    path = "java_translator.py"
    assert _layers(path, source).keys() == {"portable"}


def test_pycparser_fake_typedefs_header_is_portable() -> None:
    # fake_libc_include/_fake_typedefs.h (GPU-looking, portable): every libc type is an int
    # so pycparser can parse without the real headers.
    source = b"""\
#ifndef FAKE_TYPES_H
#define FAKE_TYPES_H

typedef int size_t;
typedef int clock_t;
typedef int clockid_t;
typedef int __uint32_t;
typedef int pthread_t;

#endif
"""
    path = "fake_libc_include/_fake_typedefs.h"
    assert _layers(path, source).keys() == {"portable"}


# -- zgxotsycl-dotcom/zgzegg: Flutter animation app drawing on a Canvas ---------------------


def test_flutter_canvas_renderer_is_portable() -> None:
    # lib/engine/renderer.dart (GPU-looking, portable): records a frame with dart:ui's
    # PictureRecorder and Canvas; the engine picks the graphics backend.
    source = b"""\
import 'dart:ui' as ui;

class FrameRenderer {
  static ui.Picture draw(ui.Size size, ui.Color background) {
    final recorder = ui.PictureRecorder();
    final canvas = ui.Canvas(recorder);
    final paint = ui.Paint()..color = background;
    canvas.drawRect(ui.Rect.fromLTWH(0, 0, size.width, size.height), paint);
    return recorder.endRecording();
  }
}
"""
    path = "lib/engine/renderer.dart"
    assert _layers(path, source).keys() == {"portable"}


# -- csharperBoy/NexusPlatform and megatron-vektorlab/carry-dashboard -----------------------


def test_aspnet_health_check_extension_is_portable() -> None:
    # Core.Infrastructure/DependencyInjection/HealthCheckExtensions.cs (sampled, portable).
    source = b"""\
using Microsoft.Extensions.DependencyInjection;

namespace Core.Infrastructure.DependencyInjection;

public static class HealthCheckSetup
{
    public static IServiceCollection AddPlatformHealth(this IServiceCollection services)
    {
        services.AddHealthChecks();
        return services;
    }
}
"""
    path = "Core.Infrastructure/DependencyInjection/HealthCheckExtensions.cs"
    assert _layers(path, source).keys() == {"portable"}


def test_next_config_is_portable() -> None:
    # next.config.mjs (sampled, portable): a Next.js config that ships a data folder.
    source = b"""\
const config = {
  outputFileTracingIncludes: { "/api/report": ["./data/**"] },
};

export default config;
"""
    path = "next.config.mjs"
    assert _layers(path, source).keys() == {"portable"}
