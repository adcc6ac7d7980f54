"""Installs the repository's top folders as one namespace: streams/ is contraflow.streams,
agents/ contraflow.agents, models/ contraflow.models, topics/ contraflow.topics (nothing
generic lands at the top of site-packages). Everything else is in pyproject.toml."""

from setuptools import find_packages, setup

FOLDERS = ("streams", "agents", "models", "topics")

setup(
    packages=[f"contraflow.{name}" for name in find_packages(include=[f"{folder}*" for folder in FOLDERS])],
    package_dir={f"contraflow.{folder}": folder for folder in FOLDERS},
)
