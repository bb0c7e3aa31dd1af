package dev.memoir;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import java.util.HashMap;
import java.util.LinkedHashMap;

import jakarta.persistence.Entity;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.context.annotation.Bean;
import org.springframework.data.repository.Repository;
import org.springframework.jdbc.core.JdbcOperations;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcOperations;
import org.springframework.web.bind.annotation.RestController;

import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget.CodeUnitCallTarget;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;

import dev.memoir.common.web.Observed;

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
    static final ArchRule entitiesStayInsideTheirFeature = classes()
            .that()
            .areAnnotatedWith(Entity.class)
            .should()
            .notBePublic()
            .orShould()
            .resideInAPackage(INTERNAL);

    @ArchTest
    static final ArchRule repositoriesStayInsideTheirFeature = classes()
            .that()
            .areAssignableTo(Repository.class)
            .should()
            .notBePublic()
            .orShould()
            .resideInAPackage(INTERNAL);

    /** Only the jobs module makes db-scheduler's tasks, so every job is retried, dead-lettered and observed alike. */
    @ArchTest
    static final ArchRule onlyJobsMakesTasks = noClasses()
            .that()
            .resideOutsideOfPackage("dev.memoir.jobs..")
            .should()
            .dependOnClassesThat()
            .areAssignableTo(Tasks.class)
            .as("no class outside dev.memoir.jobs makes a db-scheduler task itself (Jobs offers every kind)");

    /** A job type is declared beside the class that does its work, in a nested configuration named JobType. */
    @ArchTest
    static final ArchRule jobTypesAreDeclaredBesideTheirWorker = methods()
            .that()
            .areAnnotatedWith(Bean.class)
            .and()
            .haveRawReturnType(assignableTo(Task.class))
            .should()
            .beDeclaredInClassesThat()
            .haveSimpleName("JobType")
            .andShould()
            .beDeclaredInClassesThat()
            .areNestedClasses();

    /** Memoir's own observations are made by name through common.web.Observed, with one set of keys each. */
    @ArchTest
    static final ArchRule observationsAreMadeThroughObserved = noClasses()
            .that()
            .doNotHaveFullyQualifiedName("dev.memoir.common.web.Observed")
            .should()
            .callMethodWhere(target(owner(assignableTo(Observation.class)))
                    .and(target(name("createNotStarted")
                            .or(DescribedPredicate.describe(
                                    "Observation.start(name, ...)",
                                    (CodeUnitCallTarget call) -> call.getName().equals("start")
                                            && !call.getRawParameterTypes().isEmpty())))))
            .as("no class but common.web.Observed makes an observation (Observation.createNotStarted or start)");

    /** Observed is one bean, injected where it is used, never made again beside it with a registry of its own. */
    @ArchTest
    static final ArchRule observedIsInjected = noClasses()
            .should()
            .callConstructor(Observed.class, ObservationRegistry.class)
            .as("no class makes an Observed of its own (the bean is injected)");

    /**
     * Native SQL is written one way: JPA for entities, JdbcClient for everything else. Only common.jdbc reaches the
     * templates underneath (the batch JdbcClient lacks, the streaming client's fetch size).
     */
    @ArchTest
    static final ArchRule nativeSqlGoesThroughJdbcClient = noClasses()
            .that()
            .resideOutsideOfPackage("dev.memoir.common.jdbc..")
            .should()
            .dependOnClassesThat()
            .areAssignableTo(JdbcOperations.class)
            .orShould()
            .dependOnClassesThat()
            .areAssignableTo(NamedParameterJdbcOperations.class)
            .as("no class outside common.jdbc uses JdbcTemplate or NamedParameterJdbcTemplate (JdbcClient, and"
                    + " common.jdbc.JdbcBatches for a batch)");

    /**
     * No two packages use each other, directly or round a circle: within a module the top calls down and the inside
     * never back up, and in common web (the HTTP layer) uses wire and jdbc, never the other way round; so each lower
     * package can be read and changed without the ones above it.
     */
    @ArchTest
    static final ArchRule packagesFormNoCircle =
            slices().matching("dev.memoir.(**)").should().beFreeOfCycles();

    /** A webhook delivery's body is typed (WebhookData, one record per event), never a map built by hand. */
    @ArchTest
    static final ArchRule webhookPayloadsAreTyped = noClasses()
            .that()
            .resideInAPackage("dev.memoir.webhook..")
            .should()
            .callConstructor(LinkedHashMap.class)
            .orShould()
            .callConstructor(HashMap.class)
            .as("no webhook class builds a delivery's data as a map (WebhookData has a record per event)");

    /**
     * A module's inside never reaches back up to its top: the top (facades, endpoints) calls down, and the values and
     * events both use live in the module's {@code api} sub-package, a Spring Modulith named interface. So a sub-package
     * can be read, tested and changed without the layer that uses it.
     */
    @ArchTest
    static final ArchRule insidesNeverReachBackUpToTheirTop = classes()
            .that()
            .resideInAPackage(INTERNAL)
            .should(new ArchCondition<JavaClass>("not depend on a class at the top of their own module") {
                @Override
                public void check(JavaClass inside, ConditionEvents events) {
                    String top = "dev.memoir." + inside.getPackageName().split("\\.")[2];
                    for (Dependency dependency : inside.getDirectDependenciesFromSelf()) {
                        if (dependency.getTargetClass().getPackageName().equals(top)) {
                            events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription()));
                        }
                    }
                }
            });

    @ArchTest
    static final ArchRule controllersAreNotPublic = classes()
            .that()
            .areAnnotatedWith(RestController.class)
            .should()
            .notBePublic()
            .orShould()
            .resideInAPackage(INTERNAL);
}
