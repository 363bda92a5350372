//! One window with one paragraph, drawn as Suanli draws (no compositing,
//! set the way `src-tauri/src/render.rs` sets it).

fn main() {
    tauri::Builder::default()
        .setup(|app| {
            use tauri::Manager;
            if let Some(window) = app.get_webview_window("main") {
                window.with_webview(|_w| {
                    #[cfg(target_os = "linux")]
                    {
                        use webkit2gtk::{HardwareAccelerationPolicy, SettingsExt, WebViewExt};
                        if let Some(settings) = _w.inner().settings() {
                            settings.set_hardware_acceleration_policy(HardwareAccelerationPolicy::Never);
                        }
                    }
                })?;
            }
            Ok(())
        })
        .run(tauri::generate_context!())
        .expect("the empty window runs");
}
