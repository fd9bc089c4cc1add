"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h54-random-d).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 22-28. One was skipped, not replaced: megatron69-26/fnmf-app
(27) had no snapshot to fetch. Six were read: songzhw/Deprecated---CrossPlatformPlayground (a
React Native playground: JavaScript, TypeScript, the Android and iOS shells), atomantic/
SparseTree (a TypeScript genealogy web app: Express server, React client), DonBruce64/
MinecraftTransportSimulator (a Minecraft vehicle mod in Java for several Forge versions, each
with Minecraft core shaders in GLSL), Jovifei/Tesla_Simulate_vico (ESP32-S3 firmware in C++
that fakes an engine's sound, with MATLAB sound-synthesis tools), nunjuancorzo/enerfonecrm_v2
(an ASP.NET CRM in C#, SQL scripts and three published copies of its web root) and
RainbowMiner/RainbowMiner (a PowerShell mining-rig manager: miner plugins, device detection
through a C# OpenCL binding, NVIDIA and AMD overclocking, shell and batch launchers; one
object of the snapshot is absent). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, files outside the sample that hold kernel lines counted by hand (up
to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- RainbowMiner/RainbowMiner: OpenCL from C#, CUDA variables on Windows, nvidia-settings -----


def test_csharp_opencl_binding_calls_are_vendor_path() -> None:
    # DotNet/OpenCL/CommandQueue.cs (sampled; portable before): a class of a P/Invoke binding
    # of the OpenCL runtime asks the queue's properties through clGetCommandQueueInfo. The
    # namespace is a bare `OpenCl`, which opencl.managed-backend does not read.
    source = b"""\
using System;

namespace OpenCl
{
    public sealed class Queue : Counted
    {
        internal Queue(IntPtr handle) : base(handle) { }

        private const uint QUEUE_REFS = 0x1092;

        public uint Refs
        {
            get { return Info.Get<uint>(Native.clGetCommandQueueInfo, this.handle, QUEUE_REFS); }
        }

        public void Wait()
        {
            Native.clFinish(this.handle);
        }
    }
}
"""
    path = "Interop/OpenCL/Queue.cs"
    assert _rules(path, source) == {"opencl.dotnet-host"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 15}


def test_csharp_opencl_native_declarations_are_vendor_path() -> None:
    # DotNet/OpenCL/NativeMethods.cs and Platform.cs (GPU-looking, portable before): the entry
    # points declared for the OpenCL library, then called to list the platforms.
    source = b"""\
using System;
using System.Runtime.InteropServices;

namespace OpenCl
{
    internal static class Native
    {
        [DllImport("OpenCL")]
        public static extern int clGetPlatformIDs(uint count, IntPtr[] ids, out uint found);

        [DllImport("OpenCL")]
        public static extern int clGetDeviceIDs(IntPtr platform, ulong type, uint n, IntPtr[] ids);
    }
}
"""
    path = "Interop/OpenCL/Native.cs"
    assert _rules(path, source) == {"opencl.dotnet-host"}
    assert _layers(path, source)["vendor-path"] == 2


def test_csharp_names_that_only_look_like_opencl_calls_stay_portable() -> None:
    # A control's settings named with a `cl` prefix: no OpenCL entry point.
    source = b"""\
namespace Shop.Ui
{
    public class ColourPicker
    {
        private readonly Settings clSettings = Settings.Load();
        public bool clGetter;
        public string Backend => "OpenCL"; // shown in the about box only
    }
}
"""
    assert _rules("src/Ui/ColourPicker.cs", source) == set()
    assert _layers("src/Ui/ColourPicker.cs", source) == {"portable": 9}


def test_powershell_sets_cuda_device_order_is_vendor_path() -> None:
    # Modules/Core.psm1 (sampled; portable before): before detecting devices, the CUDA runtime
    # is told to number GPUs by bus id, as nvidia-smi does.
    source = b"""\
function Start-Rig {
    $Session.Started = Get-Date
    if ($env:CUDA_DEVICE_ORDER -ne 'PCI_BUS_ID') {$env:CUDA_DEVICE_ORDER = 'PCI_BUS_ID'}
    $Devices = Get-Device "cpu","gpu" -Refresh
    Write-Log "Found $($Devices.Count) devices"
}
"""
    path = "Modules/Start.psm1"
    assert _rules(path, source) == {"env.cuda-variables"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 5}


def test_batch_launcher_setx_cuda_device_order_is_vendor_path() -> None:
    # InitStandalone.bat (GPU-looking, portable before) and the other *.bat launchers: the
    # variable written into the user's environment before PowerShell starts.
    source = b"""\
@cd /d %~dp0
@if not "%CUDA_DEVICE_ORDER%"=="PCI_BUS_ID" (setx CUDA_DEVICE_ORDER PCI_BUS_ID) > nul
@set "command=& .\\Scripts\\Start.ps1"
pwsh -executionpolicy Bypass -command "%command%"
"""
    path = "Start.bat"
    assert _rules(path, source) == {"env.cuda-variables"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 3}


def test_batch_and_powershell_comments_naming_cuda_variables_are_portable() -> None:
    source = b"""\
REM setx CUDA_DEVICE_ORDER PCI_BUS_ID was needed on old drivers
:: set CUDA_VISIBLE_DEVICES=0
set CUDA_VISIBLE_DEVICES=
pwsh -command Start.ps1
"""
    assert _rules("Start.bat", source) == set()
    ps = b"""\
# $env:CUDA_VISIBLE_DEVICES = "0" on the test rig
$env:CUDA_VISIBLE_DEVICES = ""
Start-Rig
"""
    assert _rules("Modules/Start.psm1", ps) == set()


def test_nvidia_settings_attributes_built_in_powershell_are_vendor_path() -> None:
    # Modules/MinerAPIs.psm1 (sampled; portable before): on Linux, each NVIDIA card's clock
    # offsets and PowerMizer mode are queued as nvidia-settings arguments for a wrapper.
    source = b"""\
function Set-CardClocks($Cmd, $Card, $Core, $Mem) {
    if ($IsLinux) {
        [void]$Cmd.Add("-a '[gpu:$($Card)]/GPUPowerMizerMode=1'")
        [void]$Cmd.Add("-a '[gpu:$($Card)]/GPUGraphicsClockOffset[3]=$($Core)'")
        [void]$Cmd.Add("-a '[gpu:$($Card)]/GPUMemoryTransferRateOffset[3]=$($Mem)'")
    }
    Invoke-CardTool $Cmd
}
"""
    path = "Modules/Clocks.psm1"
    assert _rules(path, source) == {"cuda.nvidia-settings-attribute"}
    assert _layers(path, source) == {"vendor-path": 3, "portable": 5}


def test_nvidia_settings_command_in_shell_is_vendor_path() -> None:
    # The same tool from a Linux fan script: build.nvcc reads the command.
    source = b"""\
#!/bin/bash
nvidia-settings -a "[gpu:0]/GPUFanControlState=1"
nvidia-settings -a "[fan:0]/GPUTargetFanSpeed=$1"
echo "fan set to $1"
"""
    assert _rules("scripts/fan.sh", source) == {"build.nvcc"}
    assert _layers("scripts/fan.sh", source) == {"vendor-path": 2, "portable": 1}


def test_nvidia_smi_probe_before_fetching_cuda_libraries_is_vendor_path() -> None:
    # IncludesLinux/bash/libnv.sh (sampled, right before): is an NVIDIA card there? then fetch
    # the CUDA runtime libraries the miners need.
    source = b"""\
#!/usr/bin/env bash
has_nv() {
    command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1
}
if has_nv; then
    wget -q -O libs.tgz "$LIBS_URL" && tar -xzf libs.tgz -C ../lib
fi
"""
    assert "build.nvcc" in _rules("scripts/libs.sh", source)
    assert _layers("scripts/libs.sh", source)["vendor-path"] >= 1


def test_shell_launcher_exporting_cuda_device_order_is_vendor_path() -> None:
    # start.sh and its siblings (right before): AMD's GPU_* tuning variables, then the CUDA one.
    source = b"""\
#!/usr/bin/env bash
cd "$(dirname "$0")"
export GPU_MAX_ALLOC_PERCENT=100
export CUDA_DEVICE_ORDER=PCI_BUS_ID
pwsh -Command ./Start.ps1
"""
    assert _rules("start.sh", source) == {"env.cuda-variables"}
    assert _layers("start.sh", source) == {"vendor-path": 1, "portable": 3}


def test_cpu_miner_plugin_is_portable() -> None:
    # Miners/CpuminerPower.ps1 (sampled, right before): a CPU miner picked by instruction set.
    source = b"""\
param([String]$Name, [Bool]$InfoOnly)
if (-not $Global:Cache.CPU -and -not $InfoOnly) {return}
$Path = ".\\Bin\\CPU\\miner-$(if ($Features.avx2) {'avx2'} else {'sse2'}).exe"
$Commands = @(
    [PSCustomObject]@{Algorithm = "yespower"; Params = ""}
)
"""
    assert _rules("Miners/CpuMiner.ps1", source) == set()


# -- DonBruce64/MinecraftTransportSimulator: Minecraft core shaders and their Java host ---------


def test_minecraft_core_fragment_shader_is_kernel_whole() -> None:
    # mcinterfaceforge1182/.../shaders/core/mts_entity_lights.fsh (extra kernel file, hand 22
    # lines, lockin 22): a GLSL 150 fragment program with Minecraft's #moj_import.
    source = b"""\
#version 150

#moj_import <fog.glsl>

uniform sampler2D Tex0;
uniform vec4 Tint;
uniform float FogNear;
uniform float FogFar;
uniform vec4 FogTint;

in float dist;
in vec4 shade;
in vec2 uv;

out vec4 outColour;

void main() {
    vec4 c = texture(Tex0, uv);
    if (c.a < 0.05) {
        discard;
    }
    c *= shade * Tint;
    outColour = linear_fog(c, dist, FogNear, FogFar, FogTint);
}
"""
    path = "src/main/resources/assets/mod/shaders/core/glow.fsh"
    assert _layers(path, source) == {"kernel": 19}


def test_java_render_code_registering_shaders_is_portable() -> None:
    # mcinterfaceforge1182/.../InterfaceRender.java (GPU-looking, right before): the mod hands
    # its shader programs to the game's renderer; no GPU API of a vendor is called.
    source = b"""\
package mod.render;

import net.minecraft.client.renderer.ShaderInstance;

public class Shaders {
    private static ShaderInstance glowShader;

    public static void onRegister(RegisterEvent event) throws java.io.IOException {
        ShaderInstance made = new ShaderInstance(event.getProvider(), "mod:glow", FORMAT);
        event.register(made, s -> glowShader = s);
    }
}
"""
    assert _rules("src/main/java/mod/render/Shaders.java", source) == set()


# -- Jovifei/Tesla_Simulate_vico, nunjuancorzo/enerfonecrm_v2 and the web apps (all right) ------


def test_esp_idf_adc_reader_is_portable() -> None:
    # components/input/ThrottlePot.cpp (sampled): an ESP32 ADC read, no GPU anywhere.
    source = b"""\
#include "esp_adc/adc_oneshot.h"

namespace input {
bool read_pedal(adc_oneshot_unit_handle_t unit, int *raw) {
    return adc_oneshot_read(unit, ADC_CHANNEL_3, raw) == ESP_OK;
}
}  // namespace input
"""
    assert _rules("components/input/Pedal.cpp", source) == set()


def test_matlab_sound_synthesis_is_portable() -> None:
    # tools/sound_sim/matlab/v6/v6_synthesize_engine_sound.m (GPU-looking, right before): an
    # exhaust model in plain MATLAB.
    source = b"""\
function out = render_pipe(input, t, speed, lengths)
out = zeros(size(input));
for k = 1:numel(lengths)
    out = out + delay_by(input, t, lengths(k) ./ speed);
end
end
"""
    assert _rules("tools/sim/render_pipe.m", source) == set()


def test_csharp_entity_model_is_portable() -> None:
    # EnerfoneCRM/Models/TarifaEnergia.cs (sampled): an Entity Framework table.
    source = b"""\
using System.ComponentModel.DataAnnotations.Schema;

namespace Crm.Models
{
    [Table("tariffs")]
    public class Tariff
    {
        public int Id { get; set; }
        public decimal PricePerKwh { get; set; }
    }
}
"""
    assert _rules("Crm/Models/Tariff.cs", source) == set()


def test_react_native_animation_component_is_portable() -> None:
    # songzhw/...: ReactNative/RN5/js/component/BeatingHeart.js (sampled): Animated is React
    # Native's, no GPU API.
    source = b"""\
import React from "react";
import { Animated, Image } from "react-native";

const Pulse = ({ scale }) => (
  <Animated.View style={{ transform: [{ scale }] }}>
    <Image source={require("./heart.png")} />
  </Animated.View>
);

export default Pulse;
"""
    assert _rules("js/component/Pulse.js", source) == set()
