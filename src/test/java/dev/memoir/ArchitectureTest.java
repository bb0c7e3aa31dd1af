package dev.memoir;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import jakarta.persistence.Entity;

import org.springframework.data.repository.Repository;
import org.springframework.web.bind.annotation.RestController;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** Keeps the package-by-feature layout honest: features talk through their public services, never through tables. */
@AnalyzeClasses(packages = "dev.memoir", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule featuresHaveNoCycles = slices().matching("dev.memoir.(*)..").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule entitiesStayInsideTheirFeature = classes().that().areAnnotatedWith(Entity.class)
            .should().notBePublic();

    @ArchTest
    static final ArchRule repositoriesStayInsideTheirFeature = classes().that().areAssignableTo(Repository.class)
            .should().notBePublic();

    @ArchTest
    static final ArchRule controllersAreNotPublic = classes().that().areAnnotatedWith(RestController.class)
            .should().notBePublic();

    @ArchTest
    static final ArchRule theWebPackageDependsOnNoFeature = classes().that().resideInAPackage("dev.memoir.web")
            .should().onlyDependOnClassesThat().resideOutsideOfPackages("dev.memoir.tenant..", "dev.memoir.session..",
                    "dev.memoir.memory..", "dev.memoir.llm..", "dev.memoir.retrieval..", "dev.memoir.chat..",
                    "dev.memoir.writing..", "dev.memoir.erasure..", "dev.memoir.reranker..", "dev.memoir.feedback..",
                    "dev.memoir.jobs..");
}
