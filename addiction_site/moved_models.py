"""What a migration that moves a model to another app does besides Django's picture of it.

The moved model's table keeps its name, so its rows stay; its content type is renamed to the
new app, so the permissions granted on it and the admin's history of its rows stay with it.
"""

from collections.abc import Callable


def content_types_moved(old_app: str, new_app: str, *models: str) -> Callable:
    """A RunPython function renaming the content types of ``models`` from ``old_app`` to ``new_app``.

    Where the new app's content type already exists (made by a run of ``migrate`` that had the
    new app but not yet this migration), the old one goes and the new one stays.
    """

    def move(apps, schema_editor) -> None:  # noqa: ANN001 - Django's RunPython signature
        ContentType = apps.get_model("contenttypes", "ContentType")
        db = schema_editor.connection.alias
        for model in models:
            old = ContentType.objects.using(db).filter(app_label=old_app, model=model)
            if ContentType.objects.using(db).filter(app_label=new_app, model=model).exists():
                old.delete()
            else:
                old.update(app_label=new_app)

    return move
