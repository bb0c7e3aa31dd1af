package dev.memoir.llm;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Every model step of the application, found as the {@link ModelStep} constants in the main code. */
final class DeclaredSteps {

    private DeclaredSteps() {}

    /** The model steps declared in the main code: every static {@link ModelStep} field of its classes. */
    static List<ModelStep<?>> all() {
        Path mainClasses;
        try {
            mainClasses = Path.of(ModelStep.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        List<ModelStep<?>> steps = new ArrayList<>();
        try (Stream<Path> files = Files.walk(mainClasses)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = mainClasses
                        .relativize(file)
                        .toString()
                        .replace(File.separatorChar, '.')
                        .replaceFirst("\\.class$", "");
                for (Field field : Class.forName(name, false, DeclaredSteps.class.getClassLoader())
                        .getDeclaredFields()) {
                    if (field.getType() == ModelStep.class && Modifier.isStatic(field.getModifiers())) {
                        field.setAccessible(true);
                        steps.add((ModelStep<?>) field.get(null));
                    }
                }
            }
        } catch (IOException | ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
        return steps;
    }
}
