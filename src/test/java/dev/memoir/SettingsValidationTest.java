package dev.memoir;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;

/**
 * Every {@code memoir.*} settings record on its own, without application.yml: the records' defaults alone make a
 * valid configuration, and a value out of range stops start-up with a message naming the setting.
 */
class SettingsValidationTest {

    @Configuration(proxyBeanMethods = false)
    @ConfigurationPropertiesScan
    @ComponentScan(
            useDefaultFilters = false,
            includeFilters = @ComponentScan.Filter(ConfigurationPropertiesBinding.class))
    static class AllSettings {}

    private final ApplicationContextRunner settings =
            new ApplicationContextRunner().withUserConfiguration(AllSettings.class);

    @Test
    void theRecordsDefaultsAloneAreAValidConfiguration() {
        settings.run(context -> assertThat(context).hasNotFailed());
    }

    @ParameterizedTest
    @CsvSource({"memoir.chat.stream-timeout, 0s", "memoir.ram.edit-threshold, 1.5", "memoir.api.max-request-size, 0B"})
    void aValueOutOfRangeStopsStartUpNamingTheSetting(String setting, String value) {
        settings.withPropertyValues(setting + "=" + value)
                .run(context -> assertThat(context).getFailure().rootCause().hasMessageContaining(setting));
    }
}
