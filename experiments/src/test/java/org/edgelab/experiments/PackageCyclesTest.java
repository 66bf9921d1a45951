package org.edgelab.experiments;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The experiments module's packages depend on each other in one direction only: no package (each
 * sub-package on its own) reaches, through any chain of dependencies, back to itself. Main code only.
 */
@AnalyzeClasses(packages = "org.edgelab.experiments", importOptions = ImportOption.DoNotIncludeTests.class)
class PackageCyclesTest {

    @ArchTest
    static final ArchRule NO_PACKAGE_CYCLES = slices().matching("org.edgelab.experiments.(**)")
            .namingSlices("experiments.$1").should().beFreeOfCycles();
}
