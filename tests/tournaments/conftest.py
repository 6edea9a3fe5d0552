from tests.matches.fixtures import *  # noqa: F403
