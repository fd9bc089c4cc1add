"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h58-rest-d).

The sub-pool is ``/work/pool-h58-rest.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold NO GPU term (the
complement of ``/work/pool/h55_gpu_rule.py``, written in ``/work/pool/h58_rest_rule.py``), so
most are no GPU code at all. This lane took sub-pool positions 89-96. Three had no snapshot
and were skipped, not replaced: ramaakbar/email-blast, escossio/attention-router and
M-Ilays/GemmaQA. Read were jaxon-php/jaxon-core (a PHP Ajax library with PSR handlers and
PHPUnit tests, no GPU code), camontes/HTTesting (an ASP.NET Core HR platform in C# with
Entity Framework migrations whose seed data holds Spanish words such as "Metales", no GPU
code), Loloekk/Patrol-and-Occupy (a libGDX tank game in Java, no GPU code of its own),
Konard/LinksPlatform (C# examples, a Razor web terminal with vendored Bootstrap and jQuery,
no GPU code) and dpbullington/textmetal-legacy (a C# templating tool with vendored NUnit,
Castle Core and Jint, no GPU code). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix, with
the files lockin calls non-portable (none) and GPU-looking files it calls portable (up to 10)
checked apart, and up to three commits touching GPU-looking text
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. No file and no commit
was wrong, so nothing in the rules changed; these tests pin verdicts worth keeping, where a
GPU-looking word in ordinary code must not make a file non-portable. Each snippet is a small
rewrite, in our own words, of a pattern found in the repository its test names; the expected
layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- camontes/HTTesting: EF Core migrations with Spanish seed data --------------------------


def test_ef_migration_seed_word_metal_is_portable() -> None:
    # src/.../Migrations/*_FixRolesTableMigration.Designer.cs (GPU-looking, portable): seed
    # rows name an industry "Metales" and a risk "Metal"; no Apple Metal API is in sight.
    source = b"""\
modelBuilder.Entity("HR.Domain.Industries.Industry", b =>
{
    b.HasData(
        new { Id = 1, Name = "Metales y mineria" },
        new { Id = 2, Name = "Metal pesado" });
});
"""
    path = "src/HR.Infrastructure/Persistence/Migrations/20240520_FixRoles.Designer.cs"
    assert _layers(path, source).keys() == {"portable"}
    assert not _rules(path, source)


# -- Konard/LinksPlatform: vendored Bootstrap bundle ------------------------------------------


def test_popper_gpu_acceleration_option_is_portable() -> None:
    # wwwroot/lib/bootstrap/dist/js/bootstrap.bundle.js (GPU-looking, portable): Popper's
    # gpuAcceleration flag only picks a CSS transform over top/left offsets.
    source = b"""\
function computeStyles(data, options) {
  var gpuAcceleration = options.gpuAcceleration;
  var styles = {};
  if (gpuAcceleration) {
    styles.transform = 'translate3d(' + data.x + 'px, ' + data.y + 'px, 0)';
  } else {
    styles.left = data.x + 'px';
    styles.top = data.y + 'px';
  }
  return styles;
}
"""
    path = "wwwroot/lib/bootstrap/dist/js/bootstrap.bundle.js"
    assert _layers(path, source).keys() == {"portable"}


def test_csproj_package_reference_is_portable() -> None:
    # Platform.Data.WebTerminal.csproj (sampled, portable): a web project with NuGet
    # references and no native runtime package.
    source = b"""\
<Project Sdk="Microsoft.NET.Sdk.Web">
  <PropertyGroup>
    <TargetFramework>net8.0</TargetFramework>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="Platform.Data.Doublets" Version="0.1.0" />
  </ItemGroup>
</Project>
"""
    path = "Platform/Platform.Data.WebTerminal/Platform.Data.WebTerminal.csproj"
    assert _layers(path, source).keys() == {"portable"}


# -- Loloekk/Patrol-and-Occupy: libGDX screens -------------------------------------------------


def test_libgdx_screen_with_textures_is_portable() -> None:
    # core/src/com/pao/game/view/MapScreen.java (sampled, portable): libGDX draws through
    # its own portable OpenGL layer; textures and a camera are framework calls.
    source = b"""\
import com.badlogic.gdx.Gdx;
import com.badlogic.gdx.graphics.OrthographicCamera;
import com.badlogic.gdx.graphics.Texture;

public class MapScreen {
    private final OrthographicCamera camera = new OrthographicCamera();
    private final Texture board = new Texture(Gdx.files.internal("map.png"));

    public void render(float delta) {
        camera.update();
        batch.setProjectionMatrix(camera.combined);
    }
}
"""
    path = "core/src/com/pao/game/view/MapScreen.java"
    assert _layers(path, source).keys() == {"portable"}


# -- dpbullington/textmetal-legacy: vendored NUnit ---------------------------------------------


def test_os_platform_probe_in_csharp_is_portable() -> None:
    # src/TextMetal.Imports.NUnit/Framework/Internal/OSPlatform.cs (GPU-looking, portable):
    # the test runner asks which operating system and processor it runs on, nothing more.
    source = b"""\
public class OSPlatform
{
    public static bool IsXbox => Environment.OSVersion.Platform == PlatformID.Xbox;
    public bool IsWindows => platform == PlatformID.Win32NT;
    public bool Is64Bit => IntPtr.Size == 8;
}
"""
    path = "src/TextMetal.Imports.NUnit/Framework/Internal/OSPlatform.cs"
    assert _layers(path, source).keys() == {"portable"}


# -- jaxon-php/jaxon-core: PHP library -----------------------------------------------------


def test_php_request_handler_is_portable() -> None:
    # src/Request/Handler/RequestHandler.php (sampled, portable): an Ajax request dispatcher.
    source = b"""\
<?php
namespace Jaxon\\Request\\Handler;

class RequestHandler
{
    public function processRequest(): void
    {
        foreach ($this->plugins as $plugin) {
            if ($plugin->canProcessRequest($this->request)) {
                $plugin->processRequest();
                return;
            }
        }
    }
}
"""
    path = "src/Request/Handler/RequestHandler.php"
    assert _layers(path, source).keys() == {"portable"}
