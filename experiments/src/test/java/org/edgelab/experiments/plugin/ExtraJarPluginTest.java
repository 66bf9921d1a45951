package org.edgelab.experiments.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.edgelab.experiments.power.PowerMeter;
import org.edgelab.experiments.power.PowerModel;
import org.edgelab.experiments.power.PowerReading;
import org.edgelab.plugin.NamedPlugin;
import org.edgelab.plugin.PluginRegistry;
import org.edgelab.plugin.PluginSettings;
import org.edgelab.plugin.SettingException;
import org.edgelab.plugin.UnknownPluginException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plugin that is not part of EdgeLab: compiled here into its own jar with its META-INF/services file, then
 * found by name through a class loader that includes the jar (what the launcher's $EDGELAB_PLUGINS does with
 * the class path).
 */
class ExtraJarPluginTest {

    private static final String SOURCE = """
            package com.example.power;

            import java.util.List;
            import org.edgelab.plugin.PluginSettings;
            import org.edgelab.plugin.Setting;
            import org.edgelab.experiments.power.PowerMeter;
            import org.edgelab.experiments.power.PowerModel;
            import org.edgelab.experiments.power.PowerReading;

            public final class WallMeterModel implements PowerModel {
                public String name() { return "wall-meter"; }
                public String description() { return "a wall power analyser that always reads the same"; }
                public List<Setting> settings() { return List.of(new Setting("watts", null, "the reading")); }
                public void validate(PluginSettings s) { s.requireOnly("power model 'wall-meter'", settings()); s.number("watts", 0, 0); }
                public PowerMeter meter(PluginSettings s, String profile) {
                    double watts = s.number("watts", 0, 0);
                    return new PowerMeter() {
                        public String method() { return "measured: wall meter"; }
                        public Window start() { return u -> new PowerReading(watts, PowerReading.MEASURED); }
                    };
                }
            }
            """;

    @TempDir
    Path dir;

    private Path pluginJar() throws IOException, URISyntaxException {
        Path src = dir.resolve("src/com/example/power/WallMeterModel.java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, SOURCE);
        Path classes = Files.createDirectories(dir.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertThat(javac).as("a JDK (not a JRE) runs the tests").isNotNull();
        String classPath = location(PowerModel.class) + java.io.File.pathSeparator + location(NamedPlugin.class);
        StringWriter diagnostics = new StringWriter();
        int status = javac.run(null, null, new java.io.PrintStream(OutputStream.nullOutputStream()) {
            @Override
            public void write(byte[] b, int off, int len) {
                diagnostics.write(new String(b, off, len, StandardCharsets.UTF_8));
            }
        }, "-d", classes.toString(), "-cp", classPath, "--release", "17", src.toString());
        assertThat(status).as(diagnostics.toString()).isZero();
        Path jar = dir.resolve("plugins/wall-meter.jar");
        Files.createDirectories(jar.getParent());
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
             Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
                out.write(Files.readAllBytes(file));
                out.closeEntry();
            }
            out.putNextEntry(new JarEntry("META-INF/services/" + PowerModel.class.getName()));
            out.write("com.example.power.WallMeterModel\n".getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        return jar;
    }

    private static String location(Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    @Test
    void aPowerModelInAnExtraJarIsFoundByNameNextToTheBuiltIns() throws Exception {
        Path jar = pluginJar();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, getClass().getClassLoader())) {
            PluginRegistry<PowerModel> registry = PluginRegistry.load("power model", PowerModel.class, loader);

            assertThat(registry.names()).containsExactly("linear", "rapl", "wall-meter");
            PowerModel wall = registry.get("wall-meter");
            assertThat(wall.getClass().getClassLoader()).isSameAs(loader);
            assertThat(wall.description()).contains("wall power analyser");
            PluginSettings settings = PluginSettings.of(Map.of("watts", "123.5"));
            wall.validate(settings);
            PowerReading reading = wall.meter(settings, "h").start().finish(new PowerMeter.Utilisation(1, 0.5, 0));
            assertThat(reading).isEqualTo(new PowerReading(123.5, PowerReading.MEASURED));
            assertThatThrownBy(() -> wall.validate(PluginSettings.of(Map.of("volts", "230"))))
                    .isInstanceOf(SettingException.class).hasMessageContaining("no setting 'volts'").hasMessageContaining("watts");
        }
    }

    @Test
    void withoutTheJarTheNameIsUnknownAndTheErrorListsTheKnownModels() throws Exception {
        pluginJar();
        PluginRegistry<PowerModel> builtIns = PluginRegistry.load("power model", PowerModel.class, getClass().getClassLoader());
        assertThatThrownBy(() -> builtIns.get("wall-meter"))
                .isInstanceOf(UnknownPluginException.class)
                .hasMessage("unknown power model 'wall-meter'; known power models: linear, rapl");
    }
}
