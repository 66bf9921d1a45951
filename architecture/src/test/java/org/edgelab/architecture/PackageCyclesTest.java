package org.edgelab.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.PackageMatchers;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.Set;

/**
 * No package cycles within any module's main code: each package of a module is a slice (e.g.
 * {@code org.edgelab.cache.server}, {@code org.edgelab.experiments.target.container}), and no chain of
 * dependencies between them leads back to where it started. One rule per module, so a failure names
 * the module. {@code experiments}' rule failed with 16 cycles at commit 6ceac67 ({@code descriptor} with
 * {@code runner}, {@code target}, {@code power}, {@code workload} and {@code plugin}).
 *
 * <p>Two modules keep their entry points in their root package, and those use the sub-packages that
 * implement them, which read the root's configuration back: {@code org.edgelab.origin}
 * ({@code OriginServer}, {@code OriginConfig} with {@code server/}) and {@code org.edgelab.loadgen}
 * ({@code LoadRunner}, {@code LoadConfig} with {@code client/}, {@code workload/}, {@code report/}).
 * For them the root package is left out of the rule ({@link #noCyclesBelowTheRootOf}), so their
 * sub-packages must still be free of cycles among themselves; moving the configuration out of the
 * root would let them take the strict rule.
 */
@AnalyzeClasses(packages = "org.edgelab", importOptions = ImportOption.DoNotIncludeTests.class)
class PackageCyclesTest {

    @ArchTest
    static final ArchRule commonHasNoPackageCycles = noCyclesIn(Module.COMMON);
    @ArchTest
    static final ArchRule storageApiHasNoPackageCycles = noCyclesIn(Module.STORAGE_API);
    @ArchTest
    static final ArchRule storageMemoryHasNoPackageCycles = noCyclesIn(Module.STORAGE_MEMORY);
    @ArchTest
    static final ArchRule storageRawHasNoPackageCycles = noCyclesIn(Module.STORAGE_RAW);
    @ArchTest
    static final ArchRule storageLmdbHasNoPackageCycles = noCyclesIn(Module.STORAGE_LMDB);
    @ArchTest
    static final ArchRule linksHaveNoPackageCyclesBelowTheirRoot = noCyclesBelowTheRootOf(Module.LINKS);
    @ArchTest
    static final ArchRule originHasNoPackageCyclesBelowItsRoot = noCyclesBelowTheRootOf(Module.ORIGIN);
    @ArchTest
    static final ArchRule cacheServerHasNoPackageCycles = noCyclesIn(Module.CACHE_SERVER);
    @ArchTest
    static final ArchRule loadgenHasNoPackageCyclesBelowItsRoot = noCyclesBelowTheRootOf(Module.LOADGEN);
    @ArchTest
    static final ArchRule analysisHasNoPackageCycles = noCyclesIn(Module.ANALYSIS);
    @ArchTest
    static final ArchRule experimentsHasNoPackageCycles = noCyclesIn(Module.EXPERIMENTS);
    @ArchTest
    static final ArchRule containerHasNoPackageCycles = noCyclesIn(Module.CONTAINER);
    @ArchTest
    static final ArchRule kubernetesHasNoPackageCycles = noCyclesIn(Module.KUBERNETES);
    @ArchTest
    static final ArchRule peersHasNoPackageCycles = noCyclesIn(Module.PEERS);
    @ArchTest
    static final ArchRule benchmarksHasNoPackageCycles = noCyclesIn(Module.BENCHMARKS);
    @ArchTest
    static final ArchRule cliHasNoPackageCycles = noCyclesIn(Module.CLI);

    /** The rule that the packages of {@code module}'s main code are free of cycles. */
    static ArchRule noCyclesIn(Module module) {
        return noCycles(module, Set.of());
    }

    /** The rule that the packages below {@code module}'s one root package are free of cycles. */
    static ArchRule noCyclesBelowTheRootOf(Module module) {
        String[] packages = module.packages();
        if (packages.length != 1) {
            throw new IllegalArgumentException(module.artifact() + " has no single root package");
        }
        return noCycles(module, Set.of(packages[0].replace("..", "")));
    }

    private static ArchRule noCycles(Module module, Set<String> leftOut) {
        PackageMatchers ofModule = PackageMatchers.of(module.packages());
        return slices().assignedFrom(new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                String pkg = javaClass.getPackageName();
                return ofModule.test(pkg) && !leftOut.contains(pkg) ? SliceIdentifier.of(pkg) : SliceIdentifier.ignore();
            }

            @Override
            public String getDescription() {
                return "the packages of " + module.artifact() + (leftOut.isEmpty() ? "" : " except " + leftOut);
            }
        }).should().beFreeOfCycles().because(module.artifact() + " is meant to have no package cycles (README, Layout)");
    }
}
