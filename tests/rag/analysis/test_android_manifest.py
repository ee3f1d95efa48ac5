"""Android's manifests: the activities, services, receivers and providers an app is entered through, handled by
its Kotlin and Java classes, and the links its activities open."""

from __future__ import annotations

import time

from rag.analysis.repository import analyze_repository
from tests.rag.analysis.readings import entrypoint_rows

MAIN_ACTIVITY = (
    "package com.example.shop\n\n"
    "import android.app.Activity\n\n"
    "class MainActivity : Activity() {\n"
    "    override fun onCreate(state: Bundle?) {}\n"
    "}\n"
)
ITEM_ACTIVITY = (
    "package com.example.shop.items\n\n"
    "class ItemActivity : AppCompatActivity() {\n"
    "}\n"
)
SYNC_SERVICE = (
    "package com.example.shop.sync;\n\n"
    "public class SyncService extends Service {\n"
    "    public IBinder onBind(Intent intent) { return null; }\n"
    "}\n"
)
BOOT_RECEIVER = (
    "package com.example.shop\n\n"
    "class BootReceiver : BroadcastReceiver() {\n"
    "    override fun onReceive(context: Context, intent: Intent) {}\n"
    "}\n"
)
MANIFEST = """<?xml version="1.0" encoding="utf-8"?>
<manifest xmlns:android="http://schemas.android.com/apk/res/android"
    xmlns:tools="http://schemas.android.com/tools"
    package="com.example.shop">

    <uses-permission android:name="android.permission.INTERNET" />

    <application android:label="Shop">
        <activity android:name=".MainActivity" android:exported="true">
            <intent-filter>
                <action android:name="android.intent.action.MAIN" />
                <category android:name="android.intent.category.LAUNCHER" />
            </intent-filter>
        </activity>
        <activity android:name=".items.ItemActivity">
            <intent-filter android:autoVerify="true">
                <action android:name="android.intent.action.VIEW" />
                <category android:name="android.intent.category.DEFAULT" />
                <category android:name="android.intent.category.BROWSABLE" />
                <data android:scheme="https" />
                <data android:scheme="http" />
                <data android:host="shop.example.com" />
                <data android:pathPrefix="/items" />
            </intent-filter>
            <intent-filter>
                <action android:name="android.intent.action.VIEW" />
                <data android:scheme="shop" android:host="item" />
            </intent-filter>
        </activity>
        <activity-alias android:name=".Launcher" android:targetActivity=".MainActivity" />
        <service android:name="com.example.shop.sync.SyncService" android:exported="false" />
        <receiver android:name="BootReceiver" />
        <provider android:name="androidx.startup.InitializationProvider" android:authorities="x" />
        <service android:name=".OldService" tools:node="remove" />
    </application>
</manifest>
"""
MANIFEST_PATH = "app/src/main/AndroidManifest.xml"
SOURCES = {
    "app/src/main/java/com/example/shop/MainActivity.kt": MAIN_ACTIVITY,
    "app/src/main/java/com/example/shop/items/ItemActivity.kt": ITEM_ACTIVITY,
    "app/src/main/java/com/example/shop/sync/SyncService.java": SYNC_SERVICE,
    "app/src/main/java/com/example/shop/BootReceiver.kt": BOOT_RECEIVER,
}


def _components(files: dict[str, str]) -> set[tuple]:
    rows = entrypoint_rows(files, "framework", "entry_type", "methods", "route_or_command", "handler", "path", "start_line")
    assert {row[:2] for row in rows} == {("android", "app_component")}
    return {row[2:] for row in rows}


def test_a_manifests_components_and_links_are_entrypoints_handled_by_kotlin_and_java_classes():
    found = _components({**SOURCES, MANIFEST_PATH: MANIFEST})

    main = "com.example.shop.MainActivity"
    item = "com.example.shop.items.ItemActivity"
    assert found == {
        (("activity", "launcher"), main, main, MANIFEST_PATH, 9),
        (("activity",), item, item, MANIFEST_PATH, 15),
        # The parts of a filter's <data> elements are joined: every scheme with every host and path.
        (("deep link",), "https://shop.example.com/items*", item, MANIFEST_PATH, 16),
        (("deep link",), "http://shop.example.com/items*", item, MANIFEST_PATH, 16),
        (("deep link",), "shop://item", item, MANIFEST_PATH, 25),
        # An alias opens the activity it targets.
        (("activity",), main, main, MANIFEST_PATH, 30),
        (("service",), "com.example.shop.sync.SyncService", "com.example.shop.sync.SyncService", MANIFEST_PATH, 31),
        # A bare name is in the manifest's package too.
        (("receiver",), "com.example.shop.BootReceiver", "com.example.shop.BootReceiver", MANIFEST_PATH, 32),
        # A library's component: declared, but no class of the repository.
        (("provider",), "androidx.startup.InitializationProvider", None, MANIFEST_PATH, 33),
    }


def test_without_a_package_a_relative_name_is_the_class_whose_whole_name_ends_so():
    # Android's Gradle plugin takes the package from the build script's ``namespace``.
    manifest = MANIFEST.replace('    package="com.example.shop">', ">")
    other_item = "package com.example.admin.items\n\nclass ItemActivity : Activity()\n"
    found = _components({**SOURCES, "admin/src/main/java/com/example/admin/items/ItemActivity.kt": other_item, MANIFEST_PATH: manifest})

    handlers = {route: handler for _, route, handler, _, _ in found}
    assert handlers["MainActivity"] == "com.example.shop.MainActivity"
    assert handlers["BootReceiver"] == "com.example.shop.BootReceiver"
    # Two classes end in ``.items.ItemActivity``: neither is chosen.
    assert handlers["items.ItemActivity"] is None
    assert handlers["com.example.shop.sync.SyncService"] == "com.example.shop.sync.SyncService"


def test_a_broken_manifest_gives_what_came_before_the_fault():
    broken = MANIFEST.replace('<service android:name="com.example.shop.sync.SyncService"', "<service <<")
    found = _components({**SOURCES, MANIFEST_PATH: broken})
    assert {route for _, route, _, _, _ in found} == {
        "com.example.shop.MainActivity", "com.example.shop.items.ItemActivity", "https://shop.example.com/items*",
        "http://shop.example.com/items*", "shop://item",
    }


def test_a_manifest_with_entity_expansions_is_refused_at_once():
    entities = "".join(f'<!ENTITY e{i} "{f"&e{i - 1};" * 10 if i else "x" * 10}">' for i in range(12))
    bomb = f'<?xml version="1.0"?><!DOCTYPE manifest [{entities}]><manifest package="a"><application>' \
           '<activity android:name="&e11;" xmlns:android="http://schemas.android.com/apk/res/android"/></application></manifest>'
    started = time.monotonic()
    analysis = analyze_repository({MANIFEST_PATH: bomb}).files[MANIFEST_PATH]
    assert analysis.entrypoints == []
    assert time.monotonic() - started < 30


def test_a_manifest_that_declares_a_document_type_is_not_read():
    # Entities live in a document type; no manifest declares one.
    manifest = MANIFEST.replace("<manifest ", '<!DOCTYPE manifest [<!ENTITY main ".MainActivity">]>\n<manifest ', 1)
    manifest = manifest.replace('android:name=".MainActivity" android:exported', 'android:name="&main;" android:exported')
    assert entrypoint_rows({**SOURCES, MANIFEST_PATH: manifest}, "route_or_command") == set()


def test_components_of_a_test_manifest_are_no_entrypoints():
    files = {**SOURCES, "app/src/androidTest/AndroidManifest.xml": MANIFEST}
    assert entrypoint_rows(files, "path") == set()
