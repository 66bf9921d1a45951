package org.edgelab.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import com.tngtech.archunit.library.Architectures;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The module layering of the README's dependency table, over the main code of every module: each
 * module uses only the modules {@link Module} lets it, storage code never touches Netty, and no engine
 * uses another's classes.
 */
@AnalyzeClasses(packages = "org.edgelab", importOptions = ImportOption.DoNotIncludeTests.class)
class ModuleLayeringTest {

    /** Every module's main code uses only itself, the modules of its row in the table, and libraries. */
    @ArchTest
    static final ArchRule modulesUseOnlyTheModulesBelowThem = layering();

    /**
     * Storage code runs without Netty on the class path (common's Netty and picocli are optional):
     * no storage class, nor the common pieces storage uses, may touch Netty, picocli, or the common
     * packages that need them.
     */
    @ArchTest
    static final ArchRule storageIsNettyFree = noClasses()
            .that().resideInAnyPackage("org.edgelab.storage..", "org.edgelab.units..", "org.edgelab.plugin..",
                    "org.edgelab.hashing..")
            .should().dependOnClassesThat().resideInAnyPackage("io.netty..", "picocli..",
                    "org.edgelab.transport..", "org.edgelab.http..", "org.edgelab.commandline..")
            .because("storage-api and the engines must stay Netty-free at run time (README, Layout)");

    /**
     * Targets are plugins found by name ({@code Targets}): the runner, the descriptors and the Target SPI never use the
     * classes of the netns target (nor it theirs beyond the SPI), so a topology runs through the same calls as any target.
     */
    @ArchTest
    static final ArchRule runnerFindsTheNetnsTargetByName = noClasses()
            .that().resideInAnyPackage("org.edgelab.experiments.runner..", "org.edgelab.experiments.descriptor..",
                    "org.edgelab.experiments.target..")
            .should().dependOnClassesThat().resideInAnyPackage("org.edgelab.experiments.netns..")
            .because("targets are plugins found by name through the one registry (README, Layout)");

    /** Engines reach one another only by name through the engine registry, never by class. */
    @ArchTest
    static final ArchRule enginesDoNotUseEachOthersClasses = enginesApart();

    private static ArchRule layering() {
        Architectures.LayeredArchitecture layers = Architectures.layeredArchitecture().consideringOnlyDependenciesInLayers();
        for (Module module : Module.values()) {
            layers = layers.layer(module.artifact()).definedBy(module.packages());
        }
        for (Module module : Module.values()) {
            String[] uses = Arrays.stream(module.uses()).map(Module::artifact).toArray(String[]::new);
            layers = uses.length == 0
                    ? layers.whereLayer(module.artifact()).mayNotAccessAnyLayer()
                    : layers.whereLayer(module.artifact()).mayOnlyAccessLayers(uses);
        }
        return layers.because("dependencies point down the README's table, never up and never in a cycle");
    }

    private static ArchRule enginesApart() {
        List<ArchRule> rules = new ArrayList<>();
        for (Module engine : Module.ENGINES) {
            List<String> others = new ArrayList<>();
            Module.ENGINES.stream().filter(other -> other != engine).forEach(other -> others.addAll(List.of(other.packages())));
            rules.add(noClasses().that().resideInAnyPackage(engine.packages())
                    .should().dependOnClassesThat().resideInAnyPackage(others.toArray(String[]::new))
                    .because(engine.artifact() + " reaches other engines by name, through StorageEngines"));
        }
        return CompositeArchRule.of(rules);
    }
}
