//! How the web view draws. WebKitGTK composites pages through OpenGL by
//! default; where that OpenGL is software (a virtual machine, a remote
//! desktop, Xvfb) every repaint goes through it, which made results redraw
//! about three times slower and cost WebKit 170 MB more (docs/performance.md,
//! "The window"). Suanli draws forms and 2-D canvas charts, which need no
//! compositing, so it is off unless `WEBKIT_DISABLE_COMPOSITING_MODE=0`
//! asks for WebKit's own choice.

/// Sets the drawing mode of a newly created web view.
pub fn configure(webview: tauri::webview::PlatformWebview) {
    #[cfg(target_os = "linux")]
    {
        use webkit2gtk::{HardwareAccelerationPolicy, SettingsExt, WebViewExt};
        if std::env::var_os("WEBKIT_DISABLE_COMPOSITING_MODE").is_some_and(|v| v == "0") {
            return;
        }
        if let Some(settings) = webview.inner().settings() {
            settings.set_hardware_acceleration_policy(HardwareAccelerationPolicy::Never);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = webview;
}
