//! The app on Tauri's mock runtime, and a temporary database for it.

use std::path::{Path, PathBuf};

use serde_json::Value;
use suanli_api::Lang;
use suanli_app::AppState;
use tauri::test::{INVOKE_KEY, MockRuntime, get_ipc_response, mock_builder, mock_context, noop_assets};
use tauri::webview::InvokeRequest;
use tauri::{WebviewWindow, WebviewWindowBuilder};

/// The app with one window; commands go through the same invoke path the
/// real window uses.
pub struct Shell {
    app: tauri::App<MockRuntime>,
    window: WebviewWindow<MockRuntime>,
}

/// The app on the database at `db`, on a system whose language is English.
pub fn shell(db: &Path) -> Shell {
    shell_in(db, Lang::En)
}

/// The day every test shell's clock shows (the UI tests' date), so that
/// prices age the same on any day the tests run.
pub const TODAY: (i32, u32, u32) = (2026, 11, 30);

/// The app on the database at `db`, on a system in `system_lang`.
pub fn shell_in(db: &Path, system_lang: Lang) -> Shell {
    let today = suanli_api::freshness::Date::from_ymd_opt(TODAY.0, TODAY.1, TODAY.2);
    let state = AppState::open_on(db.to_path_buf(), system_lang, today);
    let app = suanli_app::app(mock_builder(), state).build(mock_context(noop_assets())).unwrap();
    let window = WebviewWindowBuilder::new(&app, "main", Default::default()).build().unwrap();
    Shell { app, window }
}

/// Invokes commands on a shell's window from another thread (as the window
/// does while an earlier command is still running).
#[derive(Clone)]
pub struct Caller(WebviewWindow<MockRuntime>);

impl Caller {
    pub fn call(&self, cmd: &str, args: Value) -> Result<Value, Value> {
        invoke(&self.0, cmd, args)
    }
}

impl Shell {
    /// What the app holds (to hold its database as a long write would).
    pub fn state(&self) -> AppState {
        use tauri::Manager;
        self.app.state::<AppState>().inner().clone()
    }

    pub fn caller(&self) -> Caller {
        Caller(self.window.clone())
    }

    /// Invokes `cmd` with `args` (the JSON the front end sends): its result or its error.
    pub fn call(&self, cmd: &str, args: Value) -> Result<Value, Value> {
        invoke(&self.window, cmd, args)
    }

    pub fn ok(&self, cmd: &str, args: Value) -> Value {
        self.call(cmd, args).unwrap_or_else(|e| panic!("{cmd} failed: {e}"))
    }
}

fn invoke(window: &WebviewWindow<MockRuntime>, cmd: &str, args: Value) -> Result<Value, Value> {
    let request = InvokeRequest {
        cmd: cmd.into(),
        callback: tauri::ipc::CallbackFn(0),
        error: tauri::ipc::CallbackFn(1),
        url: "tauri://localhost".parse().unwrap(),
        body: tauri::ipc::InvokeBody::Json(args),
        headers: Default::default(),
        invoke_key: INVOKE_KEY.to_owned(),
    };
    get_ipc_response(window, request).map(|b| b.deserialize::<Value>().unwrap())
}

/// A directory that goes away with the test, and a database path in it.
pub fn temp_db() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("suanli.sqlite");
    (dir, db)
}
