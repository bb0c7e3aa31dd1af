# syntax=docker/dockerfile:1

# ---- build: the Maven wrapper on a full JDK ----
FROM eclipse-temurin:21-jdk AS build
WORKDIR /build

# Dependencies first, so that they stay cached until pom.xml changes.
COPY mvnw pom.xml ./
COPY .mvn .mvn
RUN chmod +x mvnw && ./mvnw -B -q dependency:go-offline

COPY src src
RUN ./mvnw -B package -DskipTests \
    && cp target/memoir-*.jar /build/app.jar

# ---- run: JRE only, as a non-root user ----
FROM eclipse-temurin:21-jre
RUN groupadd --system memoir && useradd --system --gid memoir --home-dir /app --shell /usr/sbin/nologin memoir
WORKDIR /app
COPY --from=build --chown=memoir:memoir /build/app.jar app.jar
USER memoir

# The JVM sizes its heap from the container's memory limit.
ENV JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75"
EXPOSE 8080
ENTRYPOINT ["java", "-jar", "app.jar"]
