from django.urls import path

from . import views

urlpatterns = [
    path("games/<int:game_id>/table/", views.GameTableApi.as_view(), name="game-table"),
    path("tables/", views.PracticeTableApi.as_view(), name="table-list"),
    path("tables/<int:table_id>/", views.TableDetailApi.as_view(), name="table-detail"),
    path("tables/<int:table_id>/opponents/", views.TableOpponentsApi.as_view(), name="table-opponents"),
    path("tables/<int:table_id>/again/", views.TableAgainApi.as_view(), name="table-again"),
    path("tables/<int:table_id>/log/", views.TableLogApi.as_view(), name="table-log"),
    path("tables/<int:table_id>/log/document/", views.TableLogDocumentApi.as_view(), name="table-log-document"),
    path("tables/<int:table_id>/steps/compact/", views.TableStepsApi.as_view(), name="table-steps-compact"),
    path("seeks/", views.SeekListApi.as_view(), name="seek-list"),
    path("seeks/<int:seek_id>/accept/", views.SeekAcceptApi.as_view(), name="seek-accept"),
    path("seeks/<int:seek_id>/cancel/", views.SeekCancelApi.as_view(), name="seek-cancel"),
]
