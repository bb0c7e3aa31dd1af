package dev.memoir;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

@SpringBootApplication
@ConfigurationPropertiesScan
public class MemoirApplication {

    public static void main(String[] args) {
        SpringApplication.run(MemoirApplication.class, args);
    }
}
