package dev.memoir;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import jakarta.persistence.Entity;

import org.springframework.data.repository.Repository;
import org.springframework.web.bind.annotation.RestController;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * Keeps each feature's persistence and web layer inside it: entities, repositories and controllers are either not
 * public or sit in an internal sub-package of their module (a package below {@code dev.memoir.<module>}), which
 * Spring Modulith hides from every other module. Which feature may use which is checked by
 * {@link ModuleStructureTest}.
 */
@AnalyzeClasses(packages = "dev.memoir", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    /** Any package at least two levels below {@code dev.memoir}: inside a module, never its top. */
    private static final String INTERNAL = "dev.memoir.*.*..";

    @ArchTest
    static final ArchRule entitiesStayInsideTheirFeature = classes().that().areAnnotatedWith(Entity.class)
            .should().notBePublic().orShould().resideInAPackage(INTERNAL);

    @ArchTest
    static final ArchRule repositoriesStayInsideTheirFeature = classes().that().areAssignableTo(Repository.class)
            .should().notBePublic().orShould().resideInAPackage(INTERNAL);

    @ArchTest
    static final ArchRule controllersAreNotPublic = classes().that().areAnnotatedWith(RestController.class)
            .should().notBePublic().orShould().resideInAPackage(INTERNAL);
}
