package dev.memoir.support;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.logging.Level;

import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A real headless Chromium for end-to-end tests of the inspector page: Debian's {@code chromium} driven through
 * its {@code chromedriver}, both given by path, so that Selenium Manager never runs and nothing is downloaded.
 * {@code ./scripts/test.sh} installs both where they are missing.
 */
public final class Browser implements AutoCloseable {

    private static final Path CHROMIUM = Path.of(System.getProperty("memoir.test.chromium", "/usr/bin/chromium"));
    private static final Path CHROMEDRIVER =
            Path.of(System.getProperty("memoir.test.chromedriver", "/usr/bin/chromedriver"));
    public static final Dimension LAPTOP = new Dimension(1280, 900);
    public static final Dimension PHONE = new Dimension(390, 844);

    private final ChromeDriverService service;
    private final ChromeDriver driver;

    private Browser(ChromeDriverService service, ChromeDriver driver) {
        this.service = service;
        this.driver = driver;
    }

    public static Browser start() {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            throw new IllegalStateException("The inspector tests need Debian's chromium and chromedriver at " + CHROMIUM
                    + " and " + CHROMEDRIVER + ": run ./scripts/test.sh, which installs them, or "
                    + "apt-get install chromium chromium-driver");
        }
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-dev-shm-usage",
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-extensions",
                "--lang=en-US",
                "--window-size=" + LAPTOP.width + "," + LAPTOP.height);
        // The console is read after each test: a script error or a blocked resource (CSP) shows up there.
        options.setCapability("goog:loggingPrefs", Map.of("browser", "ALL"));
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(10));
        return new Browser(service, driver);
    }

    public WebDriver driver() {
        return driver;
    }

    public void get(String url) {
        driver.get(url);
    }

    public Object script(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    public void resize(Dimension size) {
        driver.manage().window().setSize(size);
    }

    /** Waits for a condition (up to 15 seconds) and answers what it answered. */
    public <T> T until(Function<WebDriver, T> condition) {
        return new WebDriverWait(driver, Duration.ofSeconds(15)).until(condition);
    }

    public WebElement visible(By by) {
        return until(ExpectedConditions.visibilityOfElementLocated(by));
    }

    public WebElement clickable(By by) {
        return until(ExpectedConditions.elementToBeClickable(by));
    }

    /**
     * The console errors since the last call, less the browser's own line for each refused API request (which
     * the tests cause on purpose, for instance with a wrong key).
     */
    public List<String> consoleErrors() {
        return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(entry -> entry.getLevel().intValue() >= Level.SEVERE.intValue())
                .map(LogEntry::getMessage)
                .filter(message -> !message.contains("Failed to load resource: the server responded with a status"))
                .toList();
    }

    public void screenshot(Path file) {
        File shot = driver.getScreenshotAs(OutputType.FILE);
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.copy(shot.toPath(), file, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            service.stop();
        }
    }
}
